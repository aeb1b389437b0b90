"""The reward arithmetic every task shares, and a request's reward parameters.

Each task's own rule is in its folder (``services/tasks/<task>/reward.py``). The formulas,
as the seeds give them:

* math (seed 001): the answer is worth ``correct`` / ``wrong`` / ``no_answer``; the reward
  is ``answer_weight * answer + format_weight * format + thinking_weight * thinking``.
* the LLM verifier's modes (TinyV): a score in [0, 1] from the rule verdict and the
  verifier's probability ``p`` (:func:`combined_score`), mapped onto the reward scale
  between ``wrong`` and ``correct`` (:meth:`RewardScale.from_score`), for any answer the
  verifier was shown, marked or not; then the same weighted sum.
* critique and rubric items (seed 004): ``(1 - |score - reference|)**2``.

Every reward lies in its task's interval under the request's policy (the task entry's
``interval``): the lowest and highest value the task's formula can give under the request's
options, whatever the completion. The scorer clamps each reward into it as its last step
(:func:`bounded_reward`), and a value that is not a finite number never becomes a reward.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from services.domain import Mode
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


def clamp_unit(score: float) -> float:
    """A score clamped into [0, 1] on both sides (NaN is the caller's to refuse)."""
    return min(1.0, max(0.0, score))


def rubric_reward(score: float, reference: float) -> float:
    """TinyV/RRM rubric reward: ``(1 - |score - reference|)**2``, with both the score and the
    target clamped into [0, 1] first, so the reward lies in [0, 1] whatever they are."""
    return (1.0 - abs(clamp_unit(score) - clamp_unit(reference))) ** 2


@dataclass(frozen=True, slots=True)
class RewardInterval:
    """The lowest and highest reward a task's formula gives under a request's options."""

    low: float
    high: float

    @property
    def finite(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high)

    def clamp(self, value: float) -> float:
        # Comparisons, not min/max: a bound that is NaN (a request's reward value) is no bound.
        if value < self.low:
            return self.low
        if value > self.high:
            return self.high
        return value

    def __str__(self) -> str:
        return f"[{self.low:g}, {self.high:g}]"


# Critique and rubric rewards: (1 - |score - target|)**2 with both in [0, 1].
GRADED_INTERVAL = RewardInterval(0.0, 1.0)


def _extremes(values: tuple[float, ...]) -> tuple[float, float]:
    return min(values), max(values)


def _scaled(weight: float, low: float, high: float) -> tuple[float, float]:
    """The range of ``weight * x`` for ``x`` in ``[low, high]`` (a weight may be negative)."""
    return _extremes((weight * low, weight * high)) if weight != 0.0 else (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Reward:
    """An item's reward, and its answer component (before the format terms)."""

    value: float | None  # None when no judge reached a verdict
    answer: float | None = None


NO_REWARD = Reward(None)


@dataclass(frozen=True)
class RewardPolicy:
    """The reward parameters every task shares: the scale, the format weights and the
    verifier weight (a request's, resolved into its
    :class:`~services.tasks.policy.ScoringPolicy`)."""

    scale: RewardScale = field(default_factory=RewardScale)
    weights: FormatWeights = field(default_factory=FormatWeights)
    verifier_weight: float = 1.0

    def verifier_score(self, mode: Mode, rule_accepted: bool, probability: float) -> float:
        """The mode's score in [0, 1] from the rule verdict and the verifier's probability."""
        return combined_score(mode, rule_accepted, probability, self.verifier_weight)

    def total(self, answer: float, fmt: FormatScore) -> float:
        """The reward: the answer component plus the weighted format terms."""
        return combine(answer, fmt, self.weights)

    def with_format(self, low: float, high: float) -> RewardInterval:
        """The interval of :meth:`total` for an answer component in ``[low, high]``: the
        format term is in [0, 1], the thinking term in [-1, 0]."""
        parts = (
            _scaled(self.weights.answer, low, high),
            _scaled(self.weights.format, 0.0, 1.0),
            _scaled(self.weights.thinking, -1.0, 0.0),
        )
        return RewardInterval(sum(p[0] for p in parts), sum(p[1] for p in parts))

    def math_interval(self) -> RewardInterval:
        """Math: the answer component is ``correct``, ``wrong``, ``no_answer`` or a verifier
        score mapped between two of them, plus the format terms."""
        scale = self.scale
        return self.with_format(*_extremes((scale.correct, scale.wrong, scale.no_answer)))


@dataclass(frozen=True, slots=True)
class Bounded:
    """A reward after the final clamp, and what the clamp did (None: nothing)."""

    reward: Reward
    note: str | None = None
    failed: bool = False  # the reward was not a finite number: the item is an error


def bounded_reward(reward: Reward, interval: RewardInterval | None) -> Bounded:
    """``reward`` clamped into ``interval`` (the last step of scoring).

    A value that is not a finite number (NaN, an infinity, an overflow of the request's own
    reward values) is never a reward: it becomes the interval's lowest reward, said so, and
    the item is an error; with no finite lower bound to give, no reward at all. A finite
    value outside the interval (a formula fed a value out of its range) is clamped into it.
    """
    value = reward.value
    answer = reward.answer
    if answer is not None and not math.isfinite(answer):
        answer = None
    if value is None:
        return Bounded(Reward(None, answer))
    if not math.isfinite(value):
        low = interval.low if interval is not None else math.nan
        if not math.isfinite(low):
            note = f"the reward computed is not a finite number ({value}): no reward given"
            return Bounded(Reward(None, answer), note, failed=True)
        note = (
            f"the reward computed is not a finite number ({value}): the lowest reward of the "
            f"request's reward policy, {low:g}, is given"
        )
        return Bounded(Reward(low, answer), note, failed=True)
    if interval is None:
        return Bounded(Reward(value, answer))
    clamped = interval.clamp(value)
    if clamped != value:
        note = f"reward {value:g} clamped into the reward policy's interval {interval}"
        return Bounded(Reward(clamped, answer), note)
    return Bounded(Reward(value, answer))
