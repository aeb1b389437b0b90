"""Requests and judgements of the LLM verifier client (plain frozen dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple


class VerifyRequest(NamedTuple):
    """One answer to check: the question, the ground-truth answer, the extracted answer."""

    question: str
    reference: str
    answer: str


class RubricRequest(NamedTuple):
    """One response to grade against an optional rubric (criteria text)."""

    question: str
    response: str
    rubric: str = ""


class ErrorKind(StrEnum):
    """Why an item got no verdict; the caller falls back to the rule verdict."""

    UNAVAILABLE = "unavailable"  # connection refused/reset, 5xx after retries
    TIMEOUT = "timeout"  # the request ran past its HTTP policy's timeout_s
    CIRCUIT_OPEN = "circuit_open"  # the breaker refuses calls for a while
    BAD_RESPONSE = "bad_response"  # 200 but malformed, truncated or unparseable
    REJECTED = "rejected"  # 4xx: auth, unknown model, bad request (not retried)


def error_reason(kind: ErrorKind, detail: str) -> str:
    """Error strings start with the kind so callers and logs can group them."""
    return f"{kind.value}: {detail}"


def error_kind(reason: str | None) -> ErrorKind | None:
    """The kind an :func:`error_reason` string starts with; None for no error."""
    return None if reason is None else ErrorKind(reason.split(":", 1)[0])


@dataclass(frozen=True, slots=True)
class VerifierJudgement:
    """The verifier's verdict on one item, or an error reason.

    ``probability`` is P(True)/(P(True)+P(False)); ``label_mass`` is P(True)+P(False) over
    the first generated token, so a model that does not answer True/False is visible.
    """

    probability: float | None
    label_mass: float | None = None
    decided_by: Literal["logprob", "text", "thinking", "rubric"] | None = None
    raw: str = ""
    error: str | None = None
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None and self.probability is not None

    @property
    def error_kind(self) -> ErrorKind | None:
        return error_kind(self.error)


@dataclass(frozen=True, slots=True)
class RubricJudgement:
    """A graded critique: ``score`` = X/10 clamped into [0, 1] from "Total Score: X/10",
    or None."""

    score: float | None
    critique: str = ""
    error: str | None = None
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None and self.score is not None

    @property
    def error_kind(self) -> ErrorKind | None:
        return error_kind(self.error)
