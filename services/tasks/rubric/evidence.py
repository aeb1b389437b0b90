"""What the LLM grader said about a response."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RubricEvidence:
    target: float  # the item's target score, in [0, 1]
    grade: float  # the grader's min(10, X)/10; 0 when its grade could not be read
