"""Mathematics said in words, rewritten as notation."""

from __future__ import annotations

import pytest

from services.mathcheck.phrases import math_from_phrase


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("x is greater than 2", "x > 2"),
        ("greater than 2", "x > 2"),
        ("all real numbers less than -1", "x < -1"),
        ("t is at least 5", "t \\ge 5"),
        ("no more than 3", "x \\le 3"),
        ("between -1 and 1", "-1 < x < 1"),
        ("between -1 and 1 inclusive", "-1 \\le x \\le 1"),
        ("from 0 to 2.5", "0 \\le x \\le 2.5"),
        ("all real numbers except 3", "x \\ne 3"),
        ("approximately 1.4142", "1.4142"),
        ("\\approx 3.14", "3.14"),
        ("a 1/4 probability", "1/4"),
        ("25\\% chance", "25\\%"),
    ],
)
def test_a_phrase_becomes_its_notation(text: str, notation: str) -> None:
    assert math_from_phrase(text) == notation


@pytest.mark.parametrize(
    "text",
    ["the answer is at least 5 apples", "x > 2", "5", "at least five", "between friends", ""],
)
def test_anything_else_is_left_as_it_is(text: str) -> None:
    assert math_from_phrase(text) == text
