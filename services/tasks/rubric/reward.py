"""The rubric reward (TinyV/RRM): ``(1 - |grade - target|)**2``."""

from __future__ import annotations

from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, RewardPolicy, rubric_reward
from services.tasks.rubric.evidence import RubricEvidence


def rubric_task_reward(judgement: Judgement[RubricEvidence], policy: RewardPolicy) -> Reward:
    evidence = judgement.evidence
    if not judgement.judged or evidence is None:
        return NO_REWARD
    return Reward(rubric_reward(evidence.grade, evidence.target))
