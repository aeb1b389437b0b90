"""Seed 001's math reward, and its LLM-verifier modes (TinyV).

The answer component by the rule: ``correct`` / ``wrong`` for a marked answer; for an answer
given without a marker (or only inside the reasoning block) ``wrong`` when it is wrong and
the no-answer reward when it is right (kept between ``wrong`` and ``correct``); and
``no_answer`` where the completion gives no answer at all. Where the verifier judged an
answer, marked or not, the mode's score mapped onto ``[wrong, correct]``
(:meth:`~services.rewards.policy.RewardScale.from_score`). The reward adds the weighted
format terms. The table of what each case earns in each mode is in docs/integrity.md.
"""

from __future__ import annotations

from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, RewardInterval, RewardScale
from services.tasks.math.evidence import MathEvidence
from services.tasks.policy import ScoringPolicy


def unmarked_right(scale: RewardScale) -> float:
    """A right answer given without a marker: the no-answer reward (the policy asks for a
    marked one), but never below ``wrong`` nor above ``correct``."""
    return min(max(scale.no_answer, scale.wrong), max(scale.correct, scale.wrong))


def rule_answer(scale: RewardScale, evidence: MathEvidence) -> float:
    """The answer component by the rule alone (see the module docstring)."""
    if evidence.answer is not None:
        return scale.correct if evidence.accepted else scale.wrong
    if evidence.unmarked is not None:
        return unmarked_right(scale) if evidence.unmarked.accepted else scale.wrong
    return scale.no_answer


def math_reward(judgement: Judgement[MathEvidence], scoring: ScoringPolicy) -> Reward:
    policy = scoring.reward
    evidence = judgement.evidence
    if evidence is None:
        return NO_REWARD
    view = evidence.verifier
    if view is not None and view.capped:
        # An answer hidden in the reasoning block: the rule's reward, but never more than
        # the same answer marked would earn from this verifier.
        answer = min(rule_answer(policy.scale, evidence), policy.scale.from_score(view.score))
    elif view is not None:
        # Any answer the verifier was shown, marked or not: its score between wrong and
        # correct (no no-answer floor: an unmarked wrong answer is a wrong answer).
        answer = policy.scale.from_score(view.score)
    else:
        answer = rule_answer(policy.scale, evidence)
    # A verdict that fell through (verifier_only without a verifier) keeps its answer
    # component for the record, but earns no reward.
    value = policy.total(answer, evidence.format) if judgement.judged else None
    return Reward(value, answer)


def math_interval(scoring: ScoringPolicy) -> RewardInterval:
    """Math: the answer component is ``correct``, ``wrong``, ``no_answer`` or a verifier
    score mapped between two of them, plus the format terms."""
    return scoring.reward.math_interval()
