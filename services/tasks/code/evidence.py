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
    # The item's tests past its limit, never taken (services.tasks.code.selection).
    not_run: int = 0
    # Those were left out by the server's limit, not by the item's own max_tests: passing
    # the tests taken is then not passing the item's tests (no perfect bonus).
    capped: bool = False

    @property
    def given(self) -> int:
        """The tests the item gave."""
        return self.total + self.not_run

    @property
    def all_passed(self) -> bool:
        """Every test the item asked to run ran and passed."""
        return self.passed == self.total > 0 and not self.capped


@dataclass(frozen=True, slots=True)
class CodeEvidence:
    program: str | None  # the program extracted from the completion; None when there is none
    format: FormatScore  # tag compliance and thinking length
    tests: PassCount
