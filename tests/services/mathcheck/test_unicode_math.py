"""Unicode mathematics rewritten as LaTeX."""

from __future__ import annotations

import pytest

from services.mathcheck.latex_tokens import Kind, Token, tokenize
from services.mathcheck.unicode_math import latex_from_unicode, unicode_as_latex


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("x² + 7x", "x^{2} + 7x"),
        ("10⁻⁶", "10^{-6}"),
        ("2¹⁰", "2^{10}"),
        ("a₁", "a_{1}"),
        ("x₁₂", "x_{12}"),  # a run of subscripts is one subscript
        ("3½", "3\\frac{1}{2}"),
        ("¾", "\\frac{3}{4}"),
        ("−1.5", "-1.5"),
        ("2 × 3 ÷ 4", "2 \\times  3 \\div  4"),
        ("x ≤ 2", "x \\le  2"),  # relations are spelled as the vocabulary spells them
        ("a ≠ b", "a \\ne  b"),
        ("θ", "\\theta "),
        ("α+β", "\\alpha +\\beta "),
        ("ℝ", "\\mathbb{R}"),
        ("x ∈ ℝ ∪ ∅", "x \\in  \\mathbb{R} \\cup  \\emptyset "),
        ("∛8", "cbrt8"),  # a call the plain-text rules read
        ("5∶3", "5:3"),
        ("x ⩾ 2", "x \\ge  2"),
        ("1⁄2", "1/2"),
        ("≈3.14", "\\approx 3.14"),
        ("{x ∣ x > 0}", "{x \\mid  x > 0}"),
        ("∠ABC", "\\angle ABC"),
        ("±2 ∓ 1", "±2 \\mp  1"),  # "±" is read as a plus-minus as it is
    ],
)
def test_unicode_becomes_latex(text: str, latex: str) -> None:
    assert latex_from_unicode(text) == latex


def test_ascii_passes_unicode_rewriting_unchanged() -> None:
    assert latex_from_unicode("\\frac{1}{2} + x^2") == "\\frac{1}{2} + x^2"


def test_each_symbol_becomes_the_tokens_of_its_command() -> None:
    assert unicode_as_latex(tokenize("2π")) == [
        Token(Kind.DIGITS, "2"),
        Token(Kind.COMMAND, "\\pi"),
        Token(Kind.SPACE, " "),
    ]
    assert unicode_as_latex(tokenize("x²")) == tokenize("x^{2}")
