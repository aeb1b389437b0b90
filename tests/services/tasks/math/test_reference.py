"""Whether a math reference can judge an answer, in-process: as the judge calls it, with the
reference's final answer."""

from __future__ import annotations

import pytest

from services.mathcheck.extraction import reference_answer
from services.tasks.math.reference import reference_problem


def _problem(reference: str) -> str | None:
    return reference_problem(reference, reference_answer(reference))


@pytest.mark.parametrize(
    ("reference", "problem"),
    [
        ("", "is empty"),
        (" \n\t ", "is only whitespace"),
        ("4\x00", "holds a control character (U+0000)"),
        ("\x7f4", "holds a control character (U+007F)"),
        ("4\x85", "holds a control character (U+0085)"),
    ],
)
def test_empty_blank_and_corrupt_references(reference: str, problem: str) -> None:
    assert _problem(reference) == problem


@pytest.mark.parametrize(
    "reference", ["$$", "\\boxed{}", "\\fbox{ }", "\\text{}", "####", "???", "-", "%", "\\(\\)"]
)
def test_a_reference_whose_final_answer_has_nothing_in_it(reference: str) -> None:
    problem = _problem(reference)
    assert problem is not None and problem.startswith("holds no answer: its final answer")


@pytest.mark.parametrize(
    "reference",
    [
        "4",
        "#### 72",
        "\\boxed{\\frac{1}{2}}",
        "0.1",
        "Paris",
        "B",
        "\\emptyset",
        "∅",
        "\\infty",
        "∞",
        "x \\le 2",
        "1\n2",  # a line break is layout, not corruption
        "\\text{yes}",
        "三",
    ],
)
def test_answers_of_every_kind_can_judge(reference: str) -> None:
    assert _problem(reference) is None
