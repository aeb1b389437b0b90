"""The rubric task's registry entry."""

from __future__ import annotations

from services.protocol import RubricItem, RubricScoreRequest, Task
from services.tasks.entry import BatchRoute, JudgeParts, TaskEntry
from services.tasks.judging import TaskJudge
from services.tasks.rubric.evidence import RubricEvidence
from services.tasks.rubric.judge import RubricJudge
from services.tasks.rubric.result import present_rubric
from services.tasks.rubric.reward import rubric_task_reward


def _judge(parts: JudgeParts) -> TaskJudge:
    return RubricJudge(parts.verifier, parts.metrics)


RUBRIC: TaskEntry[RubricEvidence] = TaskEntry(
    name=Task.RUBRIC,
    item=RubricItem,
    judge=_judge,
    reward=rubric_task_reward,
    present=present_rubric,
    route=BatchRoute("/score/rubric", RubricScoreRequest, "rubric items (task optional)"),
)
