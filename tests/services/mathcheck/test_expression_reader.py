"""The expression reader: text read once into exact sympy expressions."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
import sympy

from services.mathcheck.expression_reader import ENGINE, read_expression, tokens

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
    ("text", "value"),
    [
        ("cx^2", sympy.Symbol("c", real=True) * x**2),  # not (cx)^2
        ("xe^x", x * sympy.exp(x)),
        ("2ab^2", 2 * sympy.Symbol("a", real=True) * sympy.Symbol("b", real=True) ** 2),
        ("kx!", sympy.Symbol("k", real=True) * sympy.factorial(x)),
    ],
)
def test_a_power_after_letters_multiplied_raises_the_last_letter(
    text: str, value: sympy.Expr
) -> None:
    formula = read_expression(text, letters_multiply=True)
    assert formula is not None and formula.value == value


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


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.125", sympy.Rational(1, 8)),
        ("-1.50", sympy.Rational(-3, 2)),
        ("0.5x + 0.5", x / 2 + sympy.Rational(1, 2)),
        ("y = 2x + 1", sympy.Eq(y, 2 * x + 1, evaluate=False)),
        ("x \\le 2.5", sympy.LessThan(x, sympy.Rational(5, 2), evaluate=False)),
        ("2.5 < x", sympy.StrictLessThan(sympy.Rational(5, 2), x, evaluate=False)),
        ("x \\neq 3", sympy.Ne(x, 3, evaluate=False)),
        ("\\sin 2x", sympy.sin(2 * x)),
        (
            "\\sin t\\cos t",
            sympy.sin(sympy.Symbol("t", real=True)) * sympy.cos(sympy.Symbol("t", real=True)),
        ),
        ("\\cos x^2", sympy.cos(x**2)),
        ("\\sin^2 x", sympy.sin(x) ** 2),
        ("\\ln 2 + 1", sympy.log(2) + 1),
        ("\\ln \\sqrt{3}", sympy.log(sympy.sqrt(3))),
        ("e^{\\ln 5}", sympy.Integer(5)),
        ("\\arctan 2", sympy.atan(2)),
        ("\\tan^{-1} 2", sympy.atan(2)),
        ("\\cos^{-1} \\frac{1}{3}", sympy.acos(sympy.Rational(1, 3))),
        ("\\sin^{-1} x", sympy.asin(x)),
        ("2ab", 2 * sympy.Symbol("a", real=True) * sympy.Symbol("b", real=True)),
        ("xe^x", x * sympy.exp(x)),
        ("|x - 1| + 1", sympy.Abs(x - 1) + 1),
        ("|y| = \\sqrt{5}", sympy.Eq(sympy.Abs(y), sympy.sqrt(5), evaluate=False)),
    ],
)
def test_the_engines_notation_reads_decimals_relations_and_loose_arguments(
    text: str, value: sympy.Basic
) -> None:
    expression = read_expression(text, notation=ENGINE)
    assert expression is not None
    assert expression.value == value
    # The plain grammar, the numeric probe's, reads none of them.
    assert read_expression(text) is None or text == "e^{\\ln 5}"


def test_a_decimal_is_its_exact_rational() -> None:
    near = read_expression("0.333", notation=ENGINE)
    assert near is not None and near.value != sympy.Rational(1, 3)
    assert near.value == sympy.Rational(333, 1000)


@pytest.mark.parametrize(
    "text",
    [
        *("1.5.3", "1e-3", "1.5e3", "x^0.5", ".5", "1,5"),  # not one decimal, or a power
        *(
            "a = b = c",
            "1 < x < 2",
            "x != 1",
            "x <= 2",
            "x == 2",
            "x =",
            "= 2",
            "x \\le",
        ),  # one relation, two sides
        *("\\sin x \\cdot y", "\\sin x / 2", "\\sin", "\\sin -x", "\\sin 2\\frac{\\pi}{3}"),
        *("\\log 100", "\\log(2)"),  # without a base, only where its meaning is set
        *("\\cos^{-2}(2)", "\\sec^{-1} 2", "\\sin^{-1.5} 2"),  # no inverse function
        *("\\frac{dy}{dx}", "\\frac{d}{dx} x^2", "abcd", "sinx"),  # a derivative, a name
        *("2|x|", "|a|b|c|", "|x", "x|"),  # a bar juxtaposed, or unpaired
    ],
)
def test_what_the_engines_notation_is_unsure_of_is_not_read(text: str) -> None:
    assert read_expression(text, notation=ENGINE) is None


@pytest.mark.parametrize(
    ("log", "text", "value"),
    [
        ("common", "\\log 100", sympy.Integer(2)),
        ("common", "\\log(1000)", sympy.Integer(3)),
        ("natural", "\\log 100", sympy.log(100)),
        ("natural", "\\log_2 8", sympy.Integer(3)),  # a base written stays
        ("natural", "2\\log 5", 2 * sympy.log(5)),
    ],
)
def test_log_without_a_base_is_read_as_the_notation_says(
    log: str, text: str, value: sympy.Basic
) -> None:
    expression = read_expression(text, notation=replace(ENGINE, log=log))
    assert expression is not None
    assert sympy.simplify(expression.value - value) == 0


@pytest.mark.parametrize(
    ("text", "small"),
    [("\\frac{x^3}{3} + C", "\\frac{x^3}{3} + c"), ("\\pi R^2", "\\pi r^2"), ("A = B", "a = b")],
)
def test_a_capital_is_its_small_letter_in_the_engines_notation(text: str, small: str) -> None:
    """As math-verify's parser reads it: ``C`` is the unknown ``c``."""
    capital, lower = read_expression(text, notation=ENGINE), read_expression(small, notation=ENGINE)
    assert capital is not None and lower is not None
    assert capital.value == lower.value and capital.unknowns == lower.unknowns
    plain = read_expression(text.replace("=", "-"))
    assert plain is None or plain.value != lower.value  # the plain grammar keeps the case


@pytest.mark.parametrize(
    "text",
    ["E", "x + E", "2I", "I^2", "f(2)", "P(1)", "y(1) + 1", "\\gamma", "\\theta(1)", "\\Delta"],
)
def test_capitals_and_calls_that_parser_reads_otherwise_are_not_read(text: str) -> None:
    """``E`` is an unknown and ``I`` the imaginary unit to math-verify's parser; ``f(2)`` is
    a function applied; ``x(x+1)`` stays a product."""
    assert read_expression(text, notation=ENGINE) is None
    product = read_expression("x(x+1)", notation=ENGINE)
    assert product is not None and product.value == x * (x + 1)


def test_a_small_greek_letter_is_an_unknown_in_the_engines_notation() -> None:
    theta = sympy.Symbol("theta", real=True)
    read = read_expression("\\sin 2\\theta", notation=ENGINE)
    assert read is not None and read.value == sympy.sin(2 * theta) and read.unknowns == {"theta"}
    other = read_expression("\\sin 2\\alpha", notation=ENGINE)
    assert other is not None and other.value != read.value
    assert read_expression("\\sin 2\\theta") is None  # not in the plain grammar


def test_one_wrapped_letter_is_that_letter_in_the_engines_notation() -> None:
    wrapped = read_expression("2\\text{x}^2 + \\mathrm{y}", notation=ENGINE)
    assert wrapped is not None and wrapped.value == 2 * x**2 + y
    other = read_expression("\\mathbf{n}", notation=ENGINE)
    assert other is not None and other.value == n and other.value != x
    # A number, e and i, a word, and a name applied are left to math-verify's parser.
    for text in ("\\text{5}", "\\text{e}", "\\mathrm{i}", "\\text{ab}", "\\text{x}(1)"):
        assert read_expression(text, notation=ENGINE) is None
    assert read_expression("\\text{x}") is None  # not in the plain grammar


def test_an_inverse_function_is_read_where_its_name_says_it() -> None:
    """``\\arctan(2)`` in any notation; ``\\tan^{-1}(2)`` only in the engine's (the
    numeric probe's plain grammar leaves the reciprocal reading open)."""
    named = read_expression("\\arctan(2)")
    assert named is not None and named.value == sympy.atan(2)
    assert read_expression("\\tan^{-1}(2)") is None


@pytest.mark.parametrize(
    "text",
    [
        "|" * 5_000 + "x" + "|" * 5_000,
        "|x" * 5_000,
        "ab" * 5_000,
        "\\tan^{-1}" * 2_000 + "2",
    ],
    ids=["nested-bars", "bar-flood", "letter-flood", "inverse-flood"],
)
def test_floods_of_the_engines_notation_are_refused_quickly(text: str) -> None:
    started = time.monotonic()
    assert read_expression(text, notation=ENGINE) is None
    assert time.monotonic() - started < 10  # well under a second measured
