"""The critique judge (seed 004, ``data_source == 'grade'``): read the policy's own grade.

The completion is a graded critique; its grade is read exactly as the seed reads it (see
:mod:`services.tasks.critique.reading`). No model is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.domain import Judge, Status, Task
from services.judgement import Judgement
from services.tasks.critique.reading import read_grade
from services.tasks.critique.wire import CritiqueItem
from services.tasks.judging import BatchContext, Entry, judge_each


@dataclass(frozen=True, slots=True)
class CritiqueEvidence:
    grade_text: str  # the text the seed hands to float()
    target: float  # the item's target score, in [0, 1]
    grade: float | None  # X/10 clamped into [0, 1], or None when no grade could be read


class CritiqueJudge:
    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        async def one(index: int, item: CritiqueItem) -> Judgement[CritiqueEvidence]:
            return judge_critique(index, item)

        return await judge_each(entries, context, CritiqueItem, one)


def judge_critique(index: int, item: CritiqueItem) -> Judgement[CritiqueEvidence]:
    graded = read_grade(item.completion, item.reference)
    return Judgement(
        index=index,
        id=item.id,
        task=Task.CRITIQUE,
        status=Status.OK,
        judge=Judge.RULE,
        detail=graded.reason,
        evidence=CritiqueEvidence(graded.grade_text, item.reference, graded.score),
    )
