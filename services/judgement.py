"""The pipeline's own record of one item: what its judge decided, and on what evidence.

A task's judge produces an :class:`ItemJudgement`; the LLM stage refines it; the reward
policy reads it; :func:`services.results.to_result` turns it into the wire
``ScoreResult`` at the edge. No stage reads another stage's output back out of the
response type.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.mathcheck.reasoning import Committed
from services.protocol import Judge, Status, Task
from services.rewards.format_reward import FormatScore


@dataclass(frozen=True, slots=True)
class PassCount:
    """How many of a code item's tests passed, of how many taken from the item."""

    passed: int
    total: int
    # Not run because the program's first test timed out; they count as failed.
    skipped: int = 0


@dataclass(frozen=True, slots=True)
class VerifierView:
    """What the LLM verifier was shown for a math answer, and what it said."""

    shown: str  # the answer it judged
    best_effort: bool  # the rule found no answer: it judged the completion's best-effort one
    probability: float  # P(correct), or the rubric score when the verdict source is rubric
    label_mass: float | None  # P(True) + P(False), when the verdict came from logprobs
    score: float  # the mode's combination of rule verdict and probability, in [0, 1]


@dataclass(frozen=True, slots=True)
class ItemJudgement:
    """One item's verdict and its evidence; only the fields of the item's task are set."""

    index: int
    id: str | int | None
    task: Task | None  # None when the item was too malformed to have one
    status: Status
    judge: Judge  # who decided the answer component
    detail: str
    # False when no judge reached a verdict that a reward can be given for.
    judged: bool = True
    # The rule accepted the answer: math, the checker found it equal to the reference
    # (a normal verdict, so the status is 'ok').
    accepted: bool = False
    # What was judged, in full: the math answer, the program, the grade text read.
    answer: str | None = None
    marked: bool = False  # math: the answer carried a final-answer marker
    reference: str | None = None  # math: the reference's final answer
    target: float | None = None  # grade and rubric items: the target score in [0, 1]
    format: FormatScore | None = None  # math and code: tag compliance and thinking length
    tests: PassCount | None = None  # code
    grade: float | None = None  # grade and rubric items: the grade read, in [0, 1]
    verifier: VerifierView | None = None  # math: set when the LLM verifier gave a verdict
    committed: Committed | None = None  # math: where the answer was searched (reasoning rule)
    # math: why the LLM verifier was not asked although the mode asks it (no answer-bearing
    # span in the completion): the rule verdict stands.
    verifier_refusal: str | None = None


def unjudged(
    index: int, item_id: str | int | None, task: Task | None, status: Status, detail: str
) -> ItemJudgement:
    """An item no judge could decide: no reward, and the reason."""
    return ItemJudgement(
        index=index,
        id=item_id,
        task=task,
        status=status,
        judge=Judge.NONE,
        detail=detail,
        judged=False,
    )
