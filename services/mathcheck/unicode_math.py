"""Unicode mathematics read as LaTeX tokens: ``x² + 7x``, ``10⁻⁶``, ``3½``, ``θ = π/4``, ``ℝ``.

Models trained on web text answer in Unicode as often as in LaTeX. The tokenizer reads each
of these characters as a symbol of its own; here each symbol becomes the tokens of the
command it stands for, a run of superscript (or subscript) symbols one exponent (``2¹⁰`` is
``2^{10}``), and a vulgar fraction a ``\\frac`` (``3½`` then reads as the mixed number 7/2).
"""

from __future__ import annotations

from itertools import groupby

from services.mathcheck.latex_tokens import Kind, Token, join, tokenize
from services.mathcheck.vocabulary import RELATION_SPELLINGS

_SYMBOLS = {
    "−": "-",  # minus sign
    "–": "-",  # en dash
    "×": "\\times ",
    "÷": "\\div ",
    "·": "\\cdot ",
    "⋅": "\\cdot ",
    "∞": "\\infty ",
    # Read as calls by the plain-text rules: "√2", "√(x+1)", "∛8".
    "√": "sqrt",
    "∛": "cbrt",
    **{char: f"{latex} " for char, latex in RELATION_SPELLINGS.items() if not char.isascii()},
    "⩾": "\\ge ",  # slanted
    "⩽": "\\le ",
    "≈": "\\approx ",
    "∓": "\\mp ",
    "∶": ":",  # ratio
    "⁄": "/",  # fraction slash
    "∣": "\\mid ",  # divides, and a set-builder's bar
    "∠": "\\angle ",
    "∈": "\\in ",
    "∪": "\\cup ",
    "∩": "\\cap ",
    "∅": "\\emptyset ",
    "ℝ": "\\mathbb{R}",
    "ℤ": "\\mathbb{Z}",
    "ℕ": "\\mathbb{N}",
    "ℚ": "\\mathbb{Q}",
    "ℂ": "\\mathbb{C}",
}
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "θ": "theta",
    "λ": "lambda", "μ": "mu", "π": "pi", "ρ": "rho", "σ": "sigma", "τ": "tau", "φ": "phi",
    "ω": "omega", "Δ": "Delta", "Ω": "Omega",
}  # fmt: skip
_FRACTIONS = {
    "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5),
    "⅗": (3, 5), "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8),
    "⅞": (7, 8),
}  # fmt: skip
# Each symbol's tokens, as the scanner reads the LaTeX it stands for.
_LATEX = {
    char: tuple(tokenize(latex))
    for char, latex in {
        **_SYMBOLS,
        **{letter: f"\\{name} " for letter, name in _GREEK.items()},
        **{char: f"\\frac{{{top}}}{{{bottom}}}" for char, (top, bottom) in _FRACTIONS.items()},
    }.items()
}
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ⁿ", "0123456789-+n", strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789", strict=True))
_UNICODE = frozenset((*_LATEX, *_SUPERSCRIPTS, *_SUBSCRIPTS))


def _script(token: Token) -> str | None:
    """ "^" for a superscript symbol, "_" for a subscript one, else None."""
    if token.kind is not Kind.SYMBOL:
        return None
    return "^" if token.text in _SUPERSCRIPTS else "_" if token.text in _SUBSCRIPTS else None


def unicode_as_latex(tokens: list[Token]) -> list[Token]:
    """``tokens`` with their Unicode mathematics as LaTeX tokens (others pass unchanged)."""
    if not any(token.kind is Kind.SYMBOL and token.text in _UNICODE for token in tokens):
        return tokens
    kept: list[Token] = []
    for script, run in groupby(tokens, key=_script):
        if script is None:
            for token in run:
                latex = _LATEX.get(token.text) if token.kind is Kind.SYMBOL else None
                kept.extend((token,) if latex is None else latex)
        else:
            characters = _SUPERSCRIPTS if script == "^" else _SUBSCRIPTS
            written = "".join(characters[token.text] for token in run)
            kept.extend(tokenize(f"{script}{{{written}}}"))
    return kept


def latex_from_unicode(text: str) -> str:
    """``text`` with its Unicode mathematics written as LaTeX (ASCII passes unchanged)."""
    return text if text.isascii() else join(unicode_as_latex(tokenize(text)))


__all__ = ["latex_from_unicode", "unicode_as_latex"]
