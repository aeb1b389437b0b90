"""The rubric task's reward rule (TinyV/RRM: ``(1 - |grade - target|)**2``), its wire
components (the grade and its target; no answer is extracted) and its registry entry."""

from __future__ import annotations

from services.judgement import Judgement
from services.rewards.policy import GRADED_INTERVAL, NO_REWARD, Reward, rubric_reward
from services.tasks.entry import NOT_PRESENTED, JudgeParts, Presented, TaskEntry
from services.tasks.judging import TaskJudge
from services.tasks.policy import ScoringPolicy
from services.tasks.rubric.judge import RubricEvidence, RubricJudge
from services.tasks.rubric.wire import WIRE


def rubric_task_reward(judgement: Judgement[RubricEvidence], policy: ScoringPolicy) -> Reward:
    evidence = judgement.evidence
    if not judgement.judged or evidence is None:
        return NO_REWARD
    return Reward(rubric_reward(evidence.grade, evidence.target))


def present_rubric(judgement: Judgement[RubricEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None:
        return NOT_PRESENTED
    return Presented({"score": evidence.grade, "reference": evidence.target}, None)


def _judge(parts: JudgeParts) -> TaskJudge:
    return RubricJudge(parts.verifier, parts.metrics)


ENTRY: TaskEntry[RubricEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=rubric_task_reward,
    present=present_rubric,
    interval=lambda policy: GRADED_INTERVAL,
)
