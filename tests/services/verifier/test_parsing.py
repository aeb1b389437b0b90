"""Pure parsing: label probabilities from logprobs, rubric scores, the rubric reward."""

from __future__ import annotations

import math

import pytest

from services.rewards.policy import rubric_reward
from services.verifier.parsing import (
    label_probability,
    parse_total_score,
    text_label,
    verdict_after_thinking,
)


def test_probability_is_normalised_over_the_two_labels() -> None:
    found = label_probability({"True": math.log(0.6), "False": math.log(0.2), "The": -1.0})
    assert found.probability == pytest.approx(0.75)
    assert found.label_mass == pytest.approx(0.8)


def test_space_and_case_variants_are_summed() -> None:
    top = {
        "True": math.log(0.3),
        " True": math.log(0.1),
        "true": math.log(0.1),
        " False": math.log(0.25),
        "FALSE": math.log(0.05),
    }
    found = label_probability(top)
    assert found.probability == pytest.approx(0.5 / 0.8)
    assert found.label_mass == pytest.approx(0.8)


def test_one_label_missing_from_top_k_counts_as_zero() -> None:
    found = label_probability({"False": math.log(0.4), "No": math.log(0.5)})
    assert found.probability == 0.0
    assert found.label_mass == pytest.approx(0.4)


def test_no_label_at_all_gives_none_and_zero_mass() -> None:
    found = label_probability({"Yes": -0.1, '"': -2.0})
    assert found.probability is None
    assert found.label_mass == 0.0
    assert label_probability(None).probability is None


def test_words_that_merely_contain_a_label_do_not_count() -> None:
    found = label_probability({"Truth": -0.1, "Falsehood": -0.2, "True": math.log(0.1)})
    assert found.probability == 1.0
    assert found.label_mass == pytest.approx(0.1)


def test_token_id_keys_use_the_exact_mapping() -> None:
    top = {"token_id:2787": math.log(0.2), "token_id:4245": math.log(0.6), "token_id:9": -0.1}
    labels = {"token_id:2787": True, "token_id:4245": False}
    found = label_probability(top, token_labels=labels)
    assert found.probability == pytest.approx(0.25)
    assert found.label_mass == pytest.approx(0.8)


def test_nan_and_none_logprobs_are_ignored() -> None:
    found = label_probability({"True": float("nan"), " True": None, "False": math.log(0.5)})
    assert found.probability == 0.0


def test_custom_labels() -> None:
    found = label_probability({"Yes": math.log(0.9), "No": math.log(0.1)}, "Yes", "No")
    assert found.probability == pytest.approx(0.9)
    assert text_label(" Yes", "Yes", "No") is True
    assert text_label("maybe") is None


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("Good work.\nTotal Score: 7/10", 0.7),
        ("total score: 8.5 / 10", 0.85),
        ("**Total Score:** 9/10.", 0.9),
        ("Total Score: 12/10", 1.0),  # min(10, X)
        ("Total Score: 0/10", 0.0),
        ("Total Score: 3/10 ... revised. Total Score: 6/10", 0.6),  # the last one wins
    ],
)
def test_total_score_parses(text: str, score: float) -> None:
    parsed, reason = parse_total_score(text)
    assert reason is None
    assert parsed == pytest.approx(score)


@pytest.mark.parametrize(
    "text",
    ["", "Score: 7/10", "Total Score: seven/10", "Total Score: 7/100", "Total Score: 7", "7/10"],
)
def test_malformed_grades_give_none_with_a_reason(text: str) -> None:
    parsed, reason = parse_total_score(text)
    assert parsed is None
    assert reason and "Total Score" in reason


def test_rubric_reward() -> None:
    assert rubric_reward(0.7, 0.7) == 1.0
    assert rubric_reward(1.0, 0.0) == 0.0
    assert rubric_reward(0.5, 0.7) == pytest.approx(0.64)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("<think>The forms differ but are equal.</think>\n\nTrue", True),
        ("Let me compare... </think> False", False),
        ("Reasoning: 1/2 = 0.5.\nAnswer: True", True),
        ("<think>maybe True?</think>False", False),  # only the text after </think> counts
        ("I am still thinking and ran out of tokens", None),
        ("</think> I cannot tell.", None),
    ],
)
def test_verdict_after_thinking(text: str, verdict: bool | None) -> None:
    assert verdict_after_thinking(text)[0] is verdict
