"""The math reward: the answer's value on the binary scale plus weighted format terms."""

from __future__ import annotations

from dataclasses import dataclass

from services.rewards.format_reward import FormatScore


@dataclass(frozen=True)
class RewardScale:
    correct: float = 1.0
    wrong: float = -1.0
    no_answer: float = -0.5

    def from_score(self, score: float) -> float:
        """Map a probability of correctness in [0, 1] onto the reward scale."""
        return self.wrong + (self.correct - self.wrong) * score


@dataclass(frozen=True)
class FormatWeights:
    answer: float = 1.0
    format: float = 0.0
    thinking: float = 0.0


def combine(answer_value: float, fmt: FormatScore, weights: FormatWeights) -> float:
    """Weighted sum of the answer value and the format components."""
    return (
        weights.answer * answer_value
        + weights.format * fmt.format
        + weights.thinking * fmt.thinking
    )
