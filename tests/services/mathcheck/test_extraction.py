from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.mathcheck.extraction import ExtractionMethod, extract_answer, extract_boxed_answer
from tests.services.mathcheck.extraction_cases import EXTRACTION_CASES


@pytest.mark.parametrize("case", EXTRACTION_CASES, ids=lambda c: c.completion[:40])
def test_extraction_corpus(case: object) -> None:
    from tests.services.mathcheck.extraction_cases import ExtractionCase

    assert isinstance(case, ExtractionCase)
    assert extract_answer(case.completion).answer == case.expected, case.note


@pytest.mark.parametrize(
    ("completion", "method"),
    [
        ("<answer>4</answer>", ExtractionMethod.ANSWER_TAG),
        ("so \\boxed{4}", ExtractionMethod.BOXED),
        ("so \\fbox{4}", ExtractionMethod.BOXED),
        ("Total\n#### 4", ExtractionMethod.GSM8K),
        ("Hence the final answer is 4.", ExtractionMethod.ANSWER_IS),
        ("4", ExtractionMethod.BARE),
        ("I could not solve it, sorry about that.", ExtractionMethod.NONE),
    ],
)
def test_method_is_reported(completion: str, method: ExtractionMethod) -> None:
    assert extract_answer(completion).method is method


def test_bare_answers_can_be_disabled() -> None:
    assert extract_answer("42", allow_bare=False).answer is None


def test_escaped_dollar_inside_math_is_not_a_delimiter() -> None:
    completion = "Final Answer: The final answer is $\\$306.00$. I hope it is correct."
    assert extract_answer(completion).answer == "\\$306.00"
    assert extract_answer("The answer is $$\\frac{1}{2}$$.").answer == "\\frac{1}{2}"


def test_factorial_and_leading_dot_survive_cleaning() -> None:
    assert extract_answer("\\boxed{5!}").answer == "5!"
    assert extract_answer("\\boxed{.5}").answer == ".5"


@pytest.mark.parametrize(
    "completion",
    [
        "\\boxed{" * 200_000,
        "\\boxed{" + "{}" * 2_000_000,
        "<answer>" * 500_000,
        "answer is " * 300_000,
        "#### " * 500_000,
        "x" * 10_000_000,
    ],
    ids=["unclosed-boxes", "brace-flood", "open-tags", "answer-is-flood", "gsm-flood", "10MB"],
)
def test_hostile_completions_are_linear(completion: str) -> None:
    started = time.monotonic()
    extract_answer(completion)
    assert time.monotonic() - started < 10  # well under 1 s measured


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_extraction_never_raises_and_is_deterministic(text: str) -> None:
    first = extract_answer(text)
    assert first == extract_answer(text)
    if first.answer is not None:
        assert first.answer == first.answer.strip()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="\\boxed{}fbox<answer>/ 12x#", max_size=200))
def test_box_matching_never_raises_on_brace_soup(text: str) -> None:
    boxed = extract_boxed_answer(text)
    assert boxed is None or boxed.count("{") >= 0
