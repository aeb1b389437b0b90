"""Seed 001's math reward, and its LLM-verifier modes (TinyV).

The answer component is ``correct`` / ``wrong`` / ``no_answer`` by the rule alone; where the
verifier gave a verdict, the mode's score mapped onto that scale (with the no-answer floor,
:func:`~services.rewards.policy.answer_value`). The reward adds the weighted format terms.
"""

from __future__ import annotations

from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, RewardPolicy, RewardScale, answer_value
from services.tasks.math.evidence import MathEvidence


def rule_answer(scale: RewardScale, answered: bool, accepted: bool) -> float:
    """The answer component by the rule alone: correct, wrong, or no answer found."""
    if not answered:
        return scale.no_answer
    return scale.correct if accepted else scale.wrong


def math_reward(judgement: Judgement[MathEvidence], policy: RewardPolicy) -> Reward:
    evidence = judgement.evidence
    if evidence is None:
        return NO_REWARD
    answered = evidence.answer is not None
    view = evidence.verifier
    if view is not None:
        answer = answer_value(policy.scale, view.score, answered)
    else:
        answer = rule_answer(policy.scale, answered, evidence.accepted)
    # A verdict that fell through (verifier_only without a verifier) keeps its answer
    # component for the record, but earns no reward.
    value = policy.total(answer, evidence.format) if judgement.judged else None
    return Reward(value, answer)
