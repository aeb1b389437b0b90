"""What the code judge found: the program, its format, and how many of its tests passed."""

from __future__ import annotations

from dataclasses import dataclass

from services.rewards.format_reward import FormatScore


@dataclass(frozen=True, slots=True)
class PassCount:
    """How many of a code item's tests passed, of how many taken from the item."""

    passed: int
    total: int
    # Not run because the program's first test timed out; they count as failed.
    skipped: int = 0


@dataclass(frozen=True, slots=True)
class CodeEvidence:
    program: str | None  # the program extracted from the completion; None when there is none
    format: FormatScore  # tag compliance and thinking length
    tests: PassCount
