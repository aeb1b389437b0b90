"""The rubric reward (TinyV/RRM): ``(1 - |grade - target|)**2``."""

from __future__ import annotations

from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, rubric_reward
from services.tasks.policy import ScoringPolicy
from services.tasks.rubric.evidence import RubricEvidence


def rubric_task_reward(judgement: Judgement[RubricEvidence], policy: ScoringPolicy) -> Reward:
    evidence = judgement.evidence
    if not judgement.judged or evidence is None:
        return NO_REWARD
    return Reward(rubric_reward(evidence.grade, evidence.target))
