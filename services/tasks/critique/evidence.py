"""What the critique judge read from a policy's graded critique."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CritiqueEvidence:
    grade_text: str  # the text the seed hands to float()
    target: float  # the item's target score, in [0, 1]
    grade: float | None  # X/10 clamped into [0, 1], or None when no grade could be read
