"""Unicode mathematics rewritten as LaTeX: ``x² + 7x``, ``10⁻⁶``, ``3½``, ``θ = π/4``, ``ℝ``.

Models trained on web text answer in Unicode as often as in LaTeX. The LaTeX parser knows
none of these characters, so each is replaced by the command it stands for; a run of
superscript (or subscript) characters becomes one exponent (``2¹⁰`` is ``2^{10}``), and a
vulgar fraction becomes a ``\\frac`` (``3½`` then reads as the mixed number 7/2).
"""

from __future__ import annotations

from itertools import groupby

from services.mathcheck.vocabulary import RELATION_SPELLINGS

_SYMBOLS = {
    "−": "-",  # minus sign
    "–": "-",  # en dash
    "×": "\\times ",
    "÷": "\\div ",
    "·": "\\cdot ",
    "⋅": "\\cdot ",
    "∞": "\\infty ",
    "√": "sqrt",  # read by the plain-text rules: "√2", "√(x+1)"
    **{char: f"{latex} " for char, latex in RELATION_SPELLINGS.items() if not char.isascii()},
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
_TABLE = str.maketrans(
    {
        **_SYMBOLS,
        **{letter: f"\\{name} " for letter, name in _GREEK.items()},
        **{char: f"\\frac{{{top}}}{{{bottom}}}" for char, (top, bottom) in _FRACTIONS.items()},
    }
)
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ⁿ", "0123456789-+n", strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789", strict=True))
_UNICODE = frozenset((*_SYMBOLS, *_GREEK, *_FRACTIONS, *_SUPERSCRIPTS, *_SUBSCRIPTS))


def _script(char: str) -> str | None:
    """ "^" for a superscript character, "_" for a subscript one, else None."""
    return "^" if char in _SUPERSCRIPTS else "_" if char in _SUBSCRIPTS else None


def latex_from_unicode(text: str) -> str:
    """``text`` with its Unicode mathematics written as LaTeX (ASCII passes unchanged)."""
    if _UNICODE.isdisjoint(text):
        return text
    pieces: list[str] = []
    for script, run in groupby(text, key=_script):
        if script is None:
            pieces.append("".join(run))
        else:
            digits = _SUPERSCRIPTS if script == "^" else _SUBSCRIPTS
            pieces.append(script + "{" + "".join(digits[char] for char in run) + "}")
    return "".join(pieces).translate(_TABLE)


__all__ = ["latex_from_unicode"]
