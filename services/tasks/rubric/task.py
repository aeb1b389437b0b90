"""The rubric task's registry entry."""

from __future__ import annotations

from services.rewards.policy import GRADED_INTERVAL
from services.tasks.entry import JudgeParts, TaskEntry
from services.tasks.judging import TaskJudge
from services.tasks.rubric.evidence import RubricEvidence
from services.tasks.rubric.judge import RubricJudge
from services.tasks.rubric.result import present_rubric
from services.tasks.rubric.reward import rubric_task_reward
from services.tasks.rubric.wire import WIRE


def _judge(parts: JudgeParts) -> TaskJudge:
    return RubricJudge(parts.verifier, parts.metrics)


ENTRY: TaskEntry[RubricEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=rubric_task_reward,
    present=present_rubric,
    interval=lambda policy: GRADED_INTERVAL,
)
