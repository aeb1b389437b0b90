"""The pipeline's own record of one item: its task, its verdict, and the evidence for it.

A task's judge produces a :class:`Judgement` whose ``evidence`` is that task's own typed
record (``Judgement[MathEvidence]``, ``Judgement[CodeEvidence]``, … in
:mod:`services.tasks`); the LLM stage refines it; the task's reward rule reads it; the
task's presenter turns it into the wire ``ScoreResult`` at the edge. The verdict is decided
here, by the judge (and the LLM stage), never read back out of the response.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from services.domain import Judge, Status, Task

EvidenceT = TypeVar("EvidenceT")


@dataclass(frozen=True, slots=True)
class Judgement(Generic[EvidenceT]):
    """One item's verdict, and its task's evidence for it."""

    index: int
    id: str | int | None
    task: Task | None  # None when the item was too malformed to have one
    status: Status
    judge: Judge  # who decided the answer component
    detail: str
    # What the task's judge found; None when no judge looked at the item (invalid, out of
    # time, its backend unavailable).
    evidence: EvidenceT | None = None
    # The verdict on the answer: a math answer equal to its reference, a program that passed
    # every test; None for tasks that grade rather than decide (critique, rubric).
    correct: bool | None = None
    # False when no judge reached a verdict that a reward can be given for.
    judged: bool = True


def unjudged(
    index: int, item_id: str | int | None, task: Task | None, status: Status, detail: str
) -> Judgement[Any]:
    """An item no judge could decide: no evidence, no reward, and the reason."""
    return Judgement(
        index=index,
        id=item_id,
        task=task,
        status=status,
        judge=Judge.NONE,
        detail=detail,
        judged=False,
    )
