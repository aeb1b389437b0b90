"""Plain-text mathematics rewritten as LaTeX."""

from __future__ import annotations

import pytest

from services.mathcheck.plain_text_math import latex_from_plain_text


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
