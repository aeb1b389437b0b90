"""The front end and the pair rules that rewrite both answers before they are read
(``alignment.align``), in-process.

Every rule is symmetric by construction: the pair in the other order is aligned to the
same two texts, swapped.
"""

from __future__ import annotations

import pytest

from services.mathcheck.alignment import align

# (reference, answer, aligned reference, aligned answer)
ALIGNED = [
    # named values against a bare tuple, in the order written
    ("a = 2, b = 3", "(2, 3)", "(2, 3)", "(2, 3)"),
    # solutions of a system against a list of tuples
    ("x = 1, y = 2 or x = 3, y = 4", "(1, 2), (3, 4)", "(1, 2), (3, 4)", "(1, 2), (3, 4)"),
    # a degree sign under a trigonometric function, on each side alone
    ("\\sin 30^\\circ", "\\frac{1}{2}", "\\sin (30\\pi/180)", "\\frac{1}{2}"),
    # a derivative's name carries no value
    ("\\frac{dy}{dx} = 2x", "2x", " 2x", "2x"),
]


@pytest.mark.parametrize(("reference", "answer", "left", "right"), ALIGNED)
def test_pair_is_aligned(reference: str, answer: str, left: str, right: str) -> None:
    assert align(reference, answer) == (left, right)


@pytest.mark.parametrize(("reference", "answer", "left", "right"), ALIGNED)
def test_alignment_is_symmetric(reference: str, answer: str, left: str, right: str) -> None:
    assert align(answer, reference) == (right, left)


def test_named_values_line_up_by_name() -> None:
    # In the first one's order, whichever side that is.
    assert align("a = 2, b = 3", "b = 3, a = 2") == ("(2, 3)", "(2, 3)")
    assert align("b = 3, a = 2", "a = 2, b = 3") == ("(3, 2)", "(3, 2)")
    assert align("a = 2, b = 3", "b = 2, a = 3") == ("(2, 3)", "(3, 2)")


@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        ("30^\\circ", "\\frac{\\pi}{6}"),  # typed values (reading.py), not rewritten
        ("(C) 12", "C"),
        ("1011_2", "11"),
        ("\\pm 3", "3, -3"),
        ("a = 2, b = 3", "(2, 3, 4)"),  # not as many values as names
        ("x = 1, y = 2 or x = 3, y = 4", "(1, 2, 5)"),
    ],
)
def test_pair_left_as_written(reference: str, answer: str) -> None:
    assert align(reference, answer) == (reference, answer)
    assert align(answer, reference) == (answer, reference)
