"""The numeric probe: expressions compared by their values, in-process, without sympy."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.mathcheck.numeric_probe import probe, read_expression, rounds_to

EQUAL = [
    ("\\frac{n(n+1)}{2}", "(n^{2}+n)/2"),
    ("8", "2^3"),
    ("\\binom{52}{5}", "2598960"),
    ("6!", "720"),
    ("\\sqrt{x}", "x^{1/2}"),
    ("\\sqrt[3]{2}", "2^{1/3}"),
    ("2\\pi", "2pi"),
    ("\\frac{\\sqrt{3}}{2}", "sqrt(3)/2"),
    ("x^2+1", "x**2+1"),
    ("x^3-1", "(x-1)(x^2+x+1)"),
    ("2x\\cos(x^2)", "\\cos(x^2)\\cdot2x"),
    ("\\ln(e^2)", "2"),
    ("\\frac{1}{2}+\\frac{1}{2}i", "\\frac{1+i}{2}"),
    ("2^{64}", "18446744073709551616"),
    ("\\tan^2(y)+1", "\\sec^2(y)"),
    ("\\sin^{2}(x)+\\cos^2(x)", "\\sec^2(x)-\\tan^{2}(x)"),
    ("\\cot(x)", "\\frac{\\cos(x)}{\\sin(x)}"),
    ("\\cfrac{1}{2}", "1/2"),
    ("\\log_{2}8", "3"),
    ("\\log_2(8)", "3"),
    ("\\log_{3}4", "2\\log_{3}2"),
    ("\\log_{10}100+1", "3"),
]
DIFFERENT = [
    ("e^{-x}", "-e^x"),
    ("a/b+c", "\\frac{a}{b+c}"),
    ("\\frac{1}{x}", "x^{-2}"),
    ("2^{64}", "18446744073709551615"),
    ("\\frac{n(n+1)}{2}", "\\frac{n(n-1)}{2}"),
    ("3-4i", "3+4i"),
    ("\\tan^2(y)", "\\sec^2(y)"),
    ("\\sin^2(x)", "\\sin(x^2)"),
    ("\\log_{2}3", "\\log_{3}2"),
]


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [(*pair, True) for pair in EQUAL] + [(*pair, False) for pair in DIFFERENT],
)
def test_values_decide_in_both_orders(reference: str, answer: str, equal: bool) -> None:
    assert probe(reference, answer) is equal
    assert probe(answer, reference) is equal


@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        # Equal where the unknowns are positive only: a branch for sympy to judge.
        ("\\sqrt{x^2}", "x"),
        # Apart by less than 50 digits can tell: never called equal, left to sympy.
        ("2^{200}", "2^{200}+1"),
        ("10^{-60}", "0"),
        # Different unknowns on the two sides.
        ("x/x", "1"),
        ("x^2", "y^2"),
        # Undefined at every point.
        ("\\frac{1}{0}", "1"),
    ],
)
def test_undecided_pairs_go_on(reference: str, answer: str) -> None:
    assert probe(reference, answer) is None


@pytest.mark.parametrize(
    "text",
    [
        "0.5",  # a decimal: its rounding is for the symbolic engine to judge
        "\\cos2x",  # a function without parentheses
        "\\sin^{-1}(x)",  # the inverse, or a power of -1
        "\\sin^1(x)",
        "\\sin^2x",
        "x_1",
        "|x|",
        "x=2",
        "1,2",
        "ab",  # a product or a name
        "a/bc",  # a/(bc) or (a/b)c
        "x^23",  # x²·3 or x²³
        "\\log(2)",  # base 10 or e
        "\\log_2 8x",  # log(8x) or log(8)·x
        "\\log_10 100",  # several digits after _ without braces
        "\\log_{2}",
        "2^{10^{10}}",
        "(1+2",
        "1e-3",  # scientific notation, not 1·e − 3
        "2.5E3",
    ],
)
def test_unsure_text_is_not_read(text: str) -> None:
    expression = read_expression(text)
    assert expression is None or probe(text, text) is None


def test_huge_values_do_not_hang() -> None:
    assert probe("10^{999}", "10^{999}") is True
    assert probe("500!", "500!") is True
    assert probe("501!", "501!") is None


@pytest.mark.parametrize(
    ("text", "decimal", "expected"),
    [
        ("\\sqrt{2}", "1.4142", True),
        ("\\sqrt{2}", "1.4142136", True),
        ("\\sqrt{2}", "1.4142135", False),  # truncated
        ("\\sqrt{2}", "1.41", False),  # too few digits to stand for it
        ("-\\pi", "-3.1416", True),
        ("\\frac{1}{2}", "0.5", True),  # exactly
        ("\\frac{1}{2}", "0.50001", False),
        ("1+\\frac{1}{2000}", "1.000", None),  # a tie at the edge of the rounding
        # just past the edge: known at the decimal's places and 50 digits more, it rounds up
        ("1+\\frac{1}{2000}+10^{-45}", "1.001", True),
        ("1+\\frac{1}{2000}-10^{-45}", "1.001", False),
        ("10^{20}", "100000000000000000000.0", None),  # too large to trust
        ("10^{-30}", "0.0", None),  # too small: maybe an exact zero
        ("\\sqrt{-1}", "0.0", None),  # not real
        ("x", "1.0", None),
        ("\\frac{1}{0}", "1.0", None),
    ],
)
def test_a_decimal_rounds_a_constant(text: str, decimal: str, expected: bool | None) -> None:
    places = len(decimal.partition(".")[2])
    assert rounds_to(text, Fraction(decimal), places) is expected
