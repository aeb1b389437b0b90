"""The expression reader: text read once into exact sympy expressions."""

from __future__ import annotations

import pytest
import sympy

from services.mathcheck.expression_reader import read_expression, tokens

x, y, n = sympy.symbols("x y n", real=True)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("\\frac{1}{2}", sympy.Rational(1, 2)),
        ("2^{64}", sympy.Integer(2**64)),
        ("6!", sympy.Integer(720)),
        ("\\binom{52}{5}", sympy.Integer(2598960)),
        ("2\\pi", 2 * sympy.pi),
        ("e^{i\\pi}", sympy.Integer(-1)),
        ("\\sqrt[3]{8}", sympy.Integer(2)),
        ("\\log_{2}8", sympy.Integer(3)),
        ("x^2y", x**2 * y),
        ("(x+1)(x-1)", (x + 1) * (x - 1)),
        ("\\tan^2(y)", sympy.tan(y) ** 2),
        ("\\left(\\frac{n}{2}\\right)^3", (n / 2) ** 3),
        ("\\sqrt{x^2}", sympy.Abs(x)),  # a letter is a real unknown
    ],
)
def test_text_reads_into_exact_sympy(text: str, value: sympy.Expr) -> None:
    expression = read_expression(text)
    assert expression is not None
    assert expression.value == value


def test_the_unknowns_are_the_names_written() -> None:
    expression = read_expression("x/x")
    assert expression is not None
    assert expression.value == 1
    assert expression.unknowns == {"x"}


def test_letters_multiply_only_in_a_formula() -> None:
    assert read_expression("cx") is None
    formula = read_expression("cx", letters_multiply=True)
    assert formula is not None and formula.unknowns == {"c", "x"}
    assert read_expression("sinx", letters_multiply=True) is None


@pytest.mark.parametrize(
    "text",
    [
        *("0.5", "1e-3", "x_1", "|x|", "x=2", "1,2", "\\log(2)", "a/bc", "x^23", "\\cos2x"),
        *("2^{10^{10}}", "501!", "\\binom{501}{2}", "(1/2)!", "(2^{999})^{999}", "(1+2", "\\#"),
        *("\\frac{1}{0}", "\\ln(0)", "y/\\ln(0)", "\\log_{1}(8)"),  # undefined somewhere
    ],
)
def test_what_the_reader_is_unsure_of_is_not_read(text: str) -> None:
    assert read_expression(text) is None


def test_tokens() -> None:
    assert tokens("2x**3 - \\frac{1}{y}") == [
        ("number", "2"),
        ("word", "x"),
        ("op", "**"),
        ("number", "3"),
        ("op", "-"),
        ("command", "\\frac"),
        ("op", "{"),
        ("number", "1"),
        ("op", "}"),
        ("op", "{"),
        ("word", "y"),
        ("op", "}"),
    ]


def test_a_whole_number_before_a_fraction_is_not_read() -> None:
    """``2\\frac{1}{2}`` is the mixed number 5/2 to some readers, the product 1 to others."""
    assert read_expression("2\\frac{1}{2}") is None
    assert read_expression("-1\\tfrac{1}{4}") is None
    assert read_expression("2 \\cdot \\frac{1}{2}") is not None
