"""The code reward: fraction of tests passed, plus a bonus when all pass."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CodeRewardWeights:
    base_weight: float = 1.0
    perfect_bonus: float = 1.0
    perfect_weight: float = 1.0


def code_reward(passed: int, total: int, weights: CodeRewardWeights) -> float:
    """``pass_fraction * base_weight + perfect_bonus * perfect_weight`` (bonus if all pass)."""
    if total <= 0:
        return 0.0
    reward = passed / total * weights.base_weight
    if passed == total:
        reward += weights.perfect_bonus * weights.perfect_weight
    return reward
