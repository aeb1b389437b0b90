"""Plain-text mathematics rewritten as LaTeX."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.mathcheck.latex_tokens import join, tokenize
from services.mathcheck.plain_text_math import plain_text_as_latex


def latex_from_plain_text(text: str) -> str:
    """The LaTeX text of ``text``'s tokens as the plain-text rules leave them."""
    return join(plain_text_as_latex(tokenize(text)))


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("sqrt(3)/2", "\\sqrt{3}/2"),
        ("sqrt 2", "\\sqrt{2}"),
        ("sqrt(x+1)", "\\sqrt{x+1}"),
        ("2pi", "2\\pi"),
        ("x**2 + 1", "x^2 + 1"),
        ("exp(2)", "e^{2}"),
        ("2^(1/3)", "2^{1/3}"),
        ("ln 2", "\\ln(2)"),
        ("abs(x-1)", "\\left|x-1\\right|"),
        ("(1, infinity)", "(1, \\infty )"),
        ("n factorial", "n!"),
        ("\\sqrt[3]2", "\\sqrt[3]{2}"),
        ("\\lbrace 1 \\rbrace", "\\{ 1 \\}"),
        ("x \\in \\R", "x \\in \\mathbb{R}"),
    ],
)
def test_plain_text_becomes_latex(text: str, latex: str) -> None:
    assert latex_from_plain_text(text) == latex


@pytest.mark.parametrize(
    "text",
    [
        "\\frac{\\sqrt{3}}{2}",
        "spin",
        "cost",
        "\\pi r^2",
        "negative infinity",
        "5 sec",
        # Braces that are a group: an argument, an exponent, an index, one value.
        "x_{1,2}",
        "2^{1,2}",
        "\\text{a, b}",
        "{5}",
        "{1}+{2}",
        # A slash that is no coefficient's: no space, in an exponent, a joint, a decimal.
        "1/2x",
        "x^4/3 y",
        "1/2 and 3/4",
        "2.5/2 x",
        "1/2 \\cdot x",
    ],
)
def test_latex_and_words_pass_unchanged(text: str) -> None:
    assert latex_from_plain_text(text) == text


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("]0, 1[", "(0, 1)"),
        ("[0, 1[", "[0, 1)"),
        ("\\frac\\pi3", "\\frac{\\pi}{3}"),
        ("\\dfrac12", "\\dfrac{1}{2}"),
        ("\\text{lcm}(4, 6)", "\\operatorname{lcm}(4, 6)"),
        ("gcd (4, 6)", "\\operatorname{gcd} (4, 6)"),
        ("sin x + cos(2x)", "\\sin(x) + \\cos(2x)"),
        ("minus infinity", "minus infinity"),
        # A root sign is a call whatever stands before it, and takes one letter as a digit.
        ("x√2", "x\\sqrt{2}"),
        ("√x + 1", "\\sqrt{x} + 1"),
        ("2√(x+1)", "2\\sqrt{x+1}"),
        # Infinity in any case, alone or not.
        ("Infinity", "\\infty"),
        ("(-INF, 2)", "(-\\infty , 2)"),
        # One character of a run: the rest of the run stays.
        ("\\frac123", "\\frac{1}{2}3"),
        ("\\sqrt [3] 27", "\\sqrt[3]{2}7"),
        ("sin xY", "\\sin(x)Y"),
        ("sqrt( pi )", "\\sqrt{\\pi}"),
        # Whole numbers over a slash, then a space and a factor: a coefficient.
        ("1/2 x^2 + C", "\\frac{1}{2} x^2 + C"),
        ("4/3 \\pi r^3", "\\frac{4}{3} \\pi r^3"),
        ("y = 3/4 (x - 1)", "y = \\frac{3}{4} (x - 1)"),
        # A set in bare braces, where a set stands.
        ("{1, 2}", "\\{1, 2\\}"),
        ("x \\in {1; 2}", "x \\in \\{1; 2\\}"),
        ("{x | x > 0}", "\\{x | x > 0\\}"),
        ("{(1, 2), (3, 4)}", "\\{(1, 2), (3, 4)\\}"),
    ],
)  # fmt: skip
def test_more_notations_become_latex(text: str, latex: str) -> None:
    assert latex_from_plain_text(text) == latex


_PIECES = st.sampled_from(
    ["sqrt", "sin", "x", "(", ")", "2", "3.5", " ", "pi", "inf", "**", "^(", " factorial", "\\",
     "\\sqrt", "[3]", "[", "]", "\\frac", "lcm", "gcd", "\\text{", "}", "{", "\\R", ",", "²"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(_PIECES, max_size=12).map("".join)))
def test_any_text_is_read_into_the_tokens_its_latex_scans_into(text: str) -> None:
    tokens = plain_text_as_latex(tokenize(text))
    assert tokens == tokenize(join(tokens))
