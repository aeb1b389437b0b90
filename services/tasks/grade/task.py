"""The grade task's registry entry."""

from __future__ import annotations

from services.protocol import GradeItem, Task
from services.tasks.entry import JudgeParts, TaskEntry
from services.tasks.grade.evidence import GradeEvidence
from services.tasks.grade.judge import GradeJudge
from services.tasks.grade.result import present_grade
from services.tasks.grade.reward import grade_reward
from services.tasks.judging import TaskJudge


def _judge(parts: JudgeParts) -> TaskJudge:
    return GradeJudge()


GRADE: TaskEntry[GradeEvidence] = TaskEntry(
    name=Task.GRADE,
    item=GradeItem,
    judge=_judge,
    reward=grade_reward,
    present=present_grade,
)
