"""The code task's own options, resolved for one request: what runs, and seed 003's
reward weights."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CodeOptions:
    # Run a program's remaining tests after its first one timed out (off: they are skipped
    # and count as failed).
    every_test: bool = False
    base_weight: float = 1.0  # weight of the fraction of tests passed
    perfect_bonus: float = 1.0  # bonus when every test passes
    perfect_weight: float = 1.0  # weight of the perfect bonus
    empty_code_reward: float = -0.5  # reward when the completion contains no code
