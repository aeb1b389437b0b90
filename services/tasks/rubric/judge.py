"""The rubric judge: the served LLM grades each response against its rubric.

All rubric items of a batch go to the verifier client in one call (it batches prompts into
one completion request). The grade ``min(10, X)/10`` is the score; a grade the model wrote
but that cannot be read counts as 0; when the model cannot be asked, the item says why and
gets no reward.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.domain import Judge, Status, Task
from services.judgement import Judgement, unjudged
from services.metrics import Metrics
from services.tasks.judging import BatchContext, Entry, items_of
from services.tasks.rubric.wire import RubricItem
from services.verifier import ErrorKind, RubricJudgement, RubricRequest, VerifierClient
from services.verifier.not_configured import NOT_CONFIGURED

_CRITIQUE_CHARS = 600


@dataclass(frozen=True, slots=True)
class RubricEvidence:
    target: float  # the item's target score, in [0, 1]
    grade: float  # the grader's min(10, X)/10; 0 when its grade could not be read


class RubricJudge:
    def __init__(self, client: VerifierClient | None, metrics: Metrics) -> None:
        self._client = client
        self._metrics = metrics

    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        items = items_of(entries, RubricItem)
        grades = await self._grade(
            [RubricRequest(item.prompt, item.completion, item.rubric) for item in items]
        )
        judgements = []
        for entry, item, grade in zip(entries, items, grades, strict=True):
            judgements.append(judge_rubric(entry.index, item, grade))
            outcome = "judged" if grade.ok else "fallback"
            self._metrics.verifier_items.labels(mode="rubric", outcome=outcome).inc()
            if grade.ok:
                self._metrics.verifier_cache_lookup("rubric", grade.cached)
        return judgements

    async def _grade(self, requests: list[RubricRequest]) -> list[RubricJudgement]:
        if self._client is None:
            return [RubricJudgement(None, error=f"unavailable: {NOT_CONFIGURED}")] * len(requests)
        return await self._client.grade_rubric(requests)


def judge_rubric(index: int, item: RubricItem, grade: RubricJudgement) -> Judgement[Any]:
    critique = grade.critique[-_CRITIQUE_CHARS:]
    if grade.ok and grade.score is not None:
        score, detail = grade.score, f"graded {grade.score:.2f}: {critique}"
    elif grade.error_kind is ErrorKind.BAD_RESPONSE:
        # The model answered but its grade cannot be read: that grade counts as 0.
        score, detail = 0.0, f"unparseable grade scored 0 ({grade.error}): {critique}"
    else:
        reason = f"rubric grading unavailable: {grade.error}"
        return unjudged(index, item.id, Task.RUBRIC, Status.UNAVAILABLE, reason)
    return Judgement(
        index=index,
        id=item.id,
        task=Task.RUBRIC,
        status=Status.OK,
        judge=Judge.VERIFIER,
        detail=detail,
        evidence=RubricEvidence(target=item.reference, grade=score),
    )
