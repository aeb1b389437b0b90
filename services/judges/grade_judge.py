"""The grade judge (seed 004, ``data_source == 'grade'``): read the policy's own grade.

The completion is a graded critique; its grade is read exactly as the seed reads it (see
:mod:`services.rewards.grade_reward`). No model is asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.judgement import ItemJudgement
from services.judges.base import BatchContext, Entry, judge_each
from services.protocol import GradeItem, Judge, Status, Task
from services.rewards.grade_reward import grade_reward


class GradeJudge:
    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[ItemJudgement]:
        async def one(index: int, item: GradeItem) -> ItemJudgement:
            return judge_grade(index, item)

        return await judge_each(entries, context, GradeItem, one)


def judge_grade(index: int, item: GradeItem) -> ItemJudgement:
    graded = grade_reward(item.completion, item.reference)
    return ItemJudgement(
        index=index,
        id=item.id,
        task=Task.GRADE,
        status=Status.OK,
        judge=Judge.RULE,
        detail=graded.reason,
        answer=graded.grade_text,
        target=item.reference,
        grade=graded.score,
    )
