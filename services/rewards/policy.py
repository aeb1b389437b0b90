"""The reward arithmetic every task shares, and a request's reward parameters.

Each task's own rule is in its folder (``services/tasks/<task>/reward.py``). The formulas,
as the seeds give them:

* math (seed 001): the answer is worth ``correct`` / ``wrong`` / ``no_answer``; the reward
  is ``answer_weight * answer + format_weight * format + thinking_weight * thinking``.
* the LLM verifier's modes (TinyV): a score in [0, 1] from the rule verdict and the
  verifier's probability ``p`` (:func:`combined_score`), mapped onto the reward scale
  (:func:`answer_value`), then the same weighted sum.
* critique and rubric items (seed 004): ``(1 - |score - reference|)**2``.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.protocol import Mode, RewardOptions
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


def needs_verifier(mode: Mode, rule_correct: bool) -> bool:
    """Whether the verifier is asked at all: ``addon`` asks about every answer the rule
    did not accept (wrong, none found, the rule timed out or failed)."""
    if mode is Mode.RULE:
        return False
    if mode is Mode.ADDON:
        return not rule_correct
    return True


def combined_score(mode: Mode, rule_correct: bool, probability: float, weight: float) -> float:
    """The score in [0, 1] for one answer; ``w`` is the verifier weight.

    rule: the rule alone. addon: correct if the rule says so, else ``p * w``.
    mixed: ``p * w + rule * (1 - w)``. verifier_only: ``p``.
    """
    rule = 1.0 if rule_correct else 0.0
    if mode is Mode.RULE:
        return rule
    if mode is Mode.ADDON:
        return 1.0 if rule_correct else probability * weight
    if mode is Mode.MIXED:
        return probability * weight + rule * (1.0 - weight)
    return probability


def answer_value(scale: RewardScale, score: float, answered: bool) -> float:
    """The answer component for a combined score.

    An answer the rule found runs from ``wrong`` (score 0) to ``correct`` (score 1). Where
    the rule found none, the floor is ``no_answer``: that reward stands only when the
    verifier rejects the best-effort answer too.
    """
    if answered:
        return scale.from_score(score)
    return scale.no_answer + (scale.correct - scale.no_answer) * score


def rubric_reward(score: float, reference: float) -> float:
    """TinyV/RRM rubric reward: ``(1 - |score - reference|)**2`` for scores in [0, 1]."""
    return (1.0 - abs(score - reference)) ** 2


@dataclass(frozen=True, slots=True)
class Reward:
    """An item's reward, and its answer component (before the format terms)."""

    value: float | None  # None when no judge reached a verdict
    answer: float | None = None


NO_REWARD = Reward(None)


@dataclass(frozen=True)
class RewardPolicy:
    """The reward parameters of one request: the scale, the format weights and the
    verifier weight every task shares, and the options a task's own rule reads."""

    scale: RewardScale
    weights: FormatWeights
    verifier_weight: float
    options: RewardOptions

    @classmethod
    def from_options(cls, options: RewardOptions) -> RewardPolicy:
        return cls(
            scale=RewardScale(options.correct, options.wrong, options.no_answer),
            weights=FormatWeights(
                options.answer_weight, options.format_weight, options.thinking_weight
            ),
            verifier_weight=options.verifier_weight,
            options=options,
        )

    def verifier_score(self, mode: Mode, rule_accepted: bool, probability: float) -> float:
        """The mode's score in [0, 1] from the rule verdict and the verifier's probability."""
        return combined_score(mode, rule_accepted, probability, self.verifier_weight)

    def total(self, answer: float, fmt: FormatScore) -> float:
        """The reward: the answer component plus the weighted format terms."""
        return combine(answer, fmt, self.weights)
