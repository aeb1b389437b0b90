"""A math judgement on the wire: its components and the answer judged."""

from __future__ import annotations

from services.echo import MAX_ANSWER_ECHO, preview
from services.judgement import Judgement
from services.mathcheck.extraction import ReasoningRule
from services.rewards.policy import Reward
from services.tasks.entry import NOT_PRESENTED, Components, Presented
from services.tasks.math.evidence import MathEvidence


def present_math(judgement: Judgement[MathEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None or reward.answer is None:
        return NOT_PRESENTED
    view = evidence.verifier
    components = {
        "format": evidence.format.format,
        "thinking": evidence.format.thinking,
        "thinking_words": float(evidence.format.thinking_words),
        # Whether the answer carried a final-answer marker (box, tag, ####, "answer is").
        "marked": float(evidence.marked),
        "answer": reward.answer,
        "correct": 1.0 if judgement.correct else 0.0,
        "no_answer": 0.0 if evidence.answer is not None else 1.0,
    }
    components.update(_reasoning_rule(evidence.committed.rule))
    unmarked = evidence.unmarked
    if unmarked is not None:
        # An answer given without a marker (or only inside the reasoning block), judged.
        components.update(
            unmarked_answer=1.0,
            unmarked_correct=1.0 if unmarked.accepted else 0.0,
            answer_hidden=1.0 if unmarked.hidden else 0.0,
        )
    if evidence.verifier_refusal is not None:
        # The mode asks the verifier, but the completion holds nothing it may judge.
        components["answer_bearing"] = 0.0
    if view is not None:
        if view.capped:
            components["verifier_cap"] = 1.0
        components.update(
            answer_bearing=1.0,
            rule_correct=1.0 if evidence.accepted else 0.0,
            verifier=view.probability,
            verifier_label_mass=view.label_mass if view.label_mass is not None else 1.0,
            verifier_best_effort=1.0 if view.best_effort else 0.0,
            score=view.score,
        )
    # What was judged: the marked answer; else what the verifier saw, or the unmarked
    # answer the rule judged.
    shown = evidence.answer
    if shown is None:
        shown = view.shown if view is not None else unmarked.answer if unmarked else None
    return Presented(components, preview(shown, MAX_ANSWER_ECHO))


def _reasoning_rule(rule: ReasoningRule) -> Components:
    """Which reasoning-block rule applied: on or off, answer after a closed block, or an
    unclosed block that left no answer."""
    return {
        "reasoning_rule": 0.0 if rule is ReasoningRule.OFF else 1.0,
        "after_reasoning": 1.0 if rule is ReasoningRule.AFTER_BLOCK else 0.0,
        "reasoning_unclosed": 1.0 if rule is ReasoningRule.UNCLOSED else 0.0,
    }
