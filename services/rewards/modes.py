"""How the rule verdict and the LLM verifier's probability combine, per mode (TinyV).

Every mode yields a score in [0, 1], which ``RewardScale.from_score`` maps onto the reward
scale (``wrong + (correct - wrong) * score``). ``w`` is the verifier weight.
"""

from __future__ import annotations

from services.protocol import Mode
from services.rewards.math_reward import RewardScale


def needs_verifier(mode: Mode, rule_correct: bool) -> bool:
    """Whether the verifier is asked at all: ``addon`` asks about every answer the rule
    did not accept (wrong, none found, the rule timed out or failed)."""
    if mode is Mode.RULE:
        return False
    if mode is Mode.ADDON:
        return not rule_correct
    return True


def combined_score(mode: Mode, rule_correct: bool, probability: float, weight: float) -> float:
    """The score in [0, 1] for one answer.

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
