"""A math judgement's wire components and echo, in-process."""

from __future__ import annotations

from dataclasses import replace

from services.mathcheck.extraction import Committed, ReasoningRule
from services.rewards.policy import NO_REWARD, Reward
from services.tasks.math.evidence import VerifierView
from services.tasks.math.result import present_math
from tests.services.tasks.math.test_reward import math


def test_the_components_show_the_judgement_s_verdict() -> None:
    presented = present_math(math(answer="4", accepted=True), Reward(1.0, 1.0))
    assert presented.components == {
        "format": 1.0,
        "thinking": 0.0,
        "thinking_words": 30.0,
        "marked": 1.0,
        "answer": 1.0,
        "correct": 1.0,
        "no_answer": 0.0,
        "reasoning_rule": 0.0,
        "after_reasoning": 0.0,
        "reasoning_unclosed": 0.0,
    }
    assert presented.extracted == "4"


def test_correct_is_the_judgement_s_verdict_not_a_score_read_again() -> None:
    # A verifier score above one half that the judgement did not call correct stays
    # incorrect on the wire: the presenter decides nothing.
    view = VerifierView("4", best_effort=False, probability=0.9, label_mass=0.8, score=0.9)
    judgement = math(view=view)
    judgement = replace(judgement, correct=False)
    presented = present_math(judgement, Reward(0.8, 0.8))
    assert presented.components["correct"] == 0.0
    assert presented.components["score"] == 0.9
    assert presented.components["verifier_label_mass"] == 0.8
    assert presented.components["rule_correct"] == 0.0


def test_the_best_effort_answer_is_echoed_where_the_rule_found_none() -> None:
    view = VerifierView("four", best_effort=True, probability=0.2, label_mass=None, score=0.2)
    presented = present_math(math(answer=None, view=view), Reward(-0.2, -0.2))
    assert presented.extracted == "four"
    assert presented.components["verifier_best_effort"] == 1.0
    assert presented.components["no_answer"] == 1.0


def test_the_reasoning_rule_and_a_refusal_are_reported() -> None:
    judgement = math(answer=None)
    assert judgement.evidence is not None
    evidence = replace(
        judgement.evidence,
        committed=Committed(ReasoningRule.UNCLOSED, None),
        verifier_refusal="only punctuation",
    )
    presented = present_math(replace(judgement, evidence=evidence), Reward(-0.5, -0.5))
    assert presented.components["reasoning_unclosed"] == 1.0
    assert presented.components["answer_bearing"] == 0.0


def test_an_item_no_judge_looked_at_presents_nothing() -> None:
    judgement = replace(math(), evidence=None, judged=False)
    assert present_math(judgement, NO_REWARD).components == {}
