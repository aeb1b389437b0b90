"""Plain-text and Unicode mathematics rewritten as LaTeX."""

from __future__ import annotations

import pytest

from services.mathcheck.plain_text_math import latex_from_plain_text
from services.mathcheck.unicode_math import latex_from_unicode


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
    "text", ["\\frac{\\sqrt{3}}{2}", "spin", "cost", "\\pi r^2", "negative infinity", "5 sec"]
)
def test_latex_and_words_pass_unchanged(text: str) -> None:
    assert latex_from_plain_text(text) == text


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("x² + 7x", "x^{2} + 7x"),
        ("10⁻⁶", "10^{-6}"),
        ("2¹⁰", "2^{10}"),
        ("a₁", "a_{1}"),
        ("3½", "3\\frac{1}{2}"),
        ("−1.5", "-1.5"),
        ("x ≤ 2", "x \\le  2"),
        ("θ", "\\theta "),
        ("ℝ", "\\mathbb{R}"),
    ],
)
def test_unicode_becomes_latex(text: str, latex: str) -> None:
    assert latex_from_unicode(text) == latex


def test_ascii_passes_unicode_rewriting_unchanged() -> None:
    assert latex_from_unicode("\\frac{1}{2} + x^2") == "\\frac{1}{2} + x^2"
