"""Mathematics said in words, rewritten as notation."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.mathcheck.latex_tokens import tokenize
from services.mathcheck.phrases import math_from_phrase, phrase_notation
from services.mathcheck.pool import SymbolicPool
from tests.services.mathcheck.checking import expected, outcomes_both_ways


@pytest.fixture(scope="module")
def pool() -> Iterator[SymbolicPool]:
    symbolic = SymbolicPool(workers=1, timeout_s=10.0, memory_mb=2048)
    yield symbolic
    symbolic.close()


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("x is greater than 2", "x > 2"),
        ("y is between 0 and 1", "0 < y < 1"),
        ("greater than 2", "(2, \\infty)"),
        ("all real numbers less than -1", "(-\\infty, -1)"),
        ("t is at least 5", "t \\ge 5"),
        ("no more than 3", "(-\\infty, 3]"),
        ("between -1 and 1", "(-1, 1)"),
        ("between -1 and 1 inclusive", "[-1, 1]"),
        ("from 0 to 2.5", "[0, 2.5]"),
        ("all real numbers except 3", "x \\ne 3"),
        ("approximately 1.4142", "1.4142"),
        ("\\approx 3.14", "3.14"),
        ("a 1/4 probability", "1/4"),
        ("25\\% chance", "25\\%"),
        # In a text font, as a boxed answer writes words.
        ("\\text{at least } 7", "[7, \\infty)"),
        ("\\text{at least $7$ boxes}", "[7, \\infty)"),
        ("\\textbf{exactly} 4", "x = 4"),
        ("\\text{between } -1 \\text{ and } 1", "(-1, 1)"),
        # The grammar's other branches.
        ("X must be at most 3", "X \\le 3"),
        ("values of n that are more than 4", "(4, \\infty)"),
        ("all real numbers other than -2", "x \\ne -2"),
        ("x is from 1 to 3", "1 \\le x \\le 3"),
        ("t is between 1 and 2, inclusive", "1 \\le t \\le 2"),
        ("the line y = 2x", "y = 2x"),
        ("The Point (1, 2)", "(1, 2)"),
        ("approx. 2.72", "2.72"),
        ("An 80\\% likelihood", "80\\%"),
    ],
)
def test_a_phrase_becomes_its_notation(text: str, notation: str) -> None:
    assert math_from_phrase(text) == notation
    assert phrase_notation(tokenize(text)) == tokenize(notation)


@pytest.mark.parametrize(
    "text",
    [
        "the answer is at least 5 apples",
        "x > 2",
        "5",
        "at least five",
        "between friends",
        "",
        "\\text{at least five}",
        "\\text{No}",
        # A hedge is a whole word: "approximation" is no "approx" before "imation".
        "approximation",
        "\\approxeq 3",
        # A phrase is short: a whole completion that ends with "chance" is none.
        "We count the cases one by one. " * 10 + "So there is a 1/4 chance",
        # "from ... to" is written in small letters.
        "From 0 to 2",
        # What follows the bound is one word, not a joint and another bound.
        "at least 7 or 8",
    ],
)
def test_anything_else_is_left_as_it_is(text: str) -> None:
    assert math_from_phrase(text) == text
    assert phrase_notation(tokenize(text)) is None


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("n \\geq 7", "\\text{at least } 7", True),
        ("n \\geq 7", "\\text{at least } 8", False),
        ("n \\geq 7", "\\text{at most } 7", False),
        ("n \\geq 7", "\\text{more than } 7", False),
        ("[2, \\infty)", "\\text{at least } 2", True),
        ("7", "\\text{exactly } 7", True),
        ("7", "\\text{at least } 7", False),
        ("t \\ge 7", "\\text{at least } 7", True),  # no unknown named: any one
        ("-1 < t < 1", "\\text{between } -1 \\text{ and } 1", True),
        ("-1 \\le t \\le 1", "\\text{between } -1 \\text{ and } 1", False),
    ],
)
def test_a_phrase_in_a_text_font_is_the_relation_it_says(
    pool: SymbolicPool, reference: str, answer: str, equal: bool
) -> None:
    assert outcomes_both_ways(pool, reference, answer) == expected(equal)
