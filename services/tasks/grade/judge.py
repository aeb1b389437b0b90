"""The grade judge (seed 004, ``data_source == 'grade'``): read the policy's own grade.

The completion is a graded critique; its grade is read exactly as the seed reads it (see
:mod:`services.tasks.grade.reading`). No model is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.judgement import Judgement
from services.protocol import GradeItem, Judge, Status, Task
from services.tasks.grade.evidence import GradeEvidence
from services.tasks.grade.reading import read_grade
from services.tasks.judging import BatchContext, Entry, judge_each


class GradeJudge:
    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        async def one(index: int, item: GradeItem) -> Judgement[GradeEvidence]:
            return judge_grade(index, item)

        return await judge_each(entries, context, GradeItem, one)


def judge_grade(index: int, item: GradeItem) -> Judgement[GradeEvidence]:
    graded = read_grade(item.completion, item.reference)
    return Judgement(
        index=index,
        id=item.id,
        task=Task.GRADE,
        status=Status.OK,
        judge=Judge.RULE,
        detail=graded.reason,
        evidence=GradeEvidence(graded.grade_text, item.reference, graded.score),
    )
