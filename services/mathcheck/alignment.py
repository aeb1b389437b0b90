"""The readers' front end: each answer of a pair written as LaTeX, on its own.

Plain-text and Unicode mathematics (``sqrt(3)/2``, ``2pi``, ``x²``) is written as LaTeX,
mathematics said in words written as notation (``at least 5``), a derivative's name
(``\\frac{dy}{dx} =``) dropped, a count ``C(10, 3)`` or ``P(10, 3)`` written as
``\\binom{10}{3}`` or ``\\frac{10!}{7!}``, and an angle in degrees under a trigonometric
function written in radians (``\\sin 30^\\circ``). Nothing here looks at the other side:
notations that mean something only next to it (an option with its value, a number in a
base, ``\\pm``, an angle in degrees, named values, solutions of a system) are typed values
(``reading.py``) that the conversion table of ``comparison.py`` compares with it.
"""

from __future__ import annotations

import re

from services.mathcheck.phrases import math_from_phrase
from services.mathcheck.plain_text_math import latex_from_plain_text

_TRIG = re.compile(r"\\(?:sin|cos|tan|cot|sec|csc)\b")
_ANGLE_IN_DEGREES = re.compile(r"(\d+(?:\.\d+)?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|°)")


def _trig_in_radians(text: str) -> str:
    """ "\\sin 30^\\circ" -> "\\sin (30\\pi/180)": a degree sign under a trig function counts."""
    if _TRIG.search(text) is None:
        return text
    return _ANGLE_IN_DEGREES.sub(r"(\1\\pi/180)", text)


# "\\frac{dy}{dx} = ", "y' = ": the name of a derivative carries no value.
_DERIVATIVE_LABEL = re.compile(
    r"^\s*\$?\s*(?:\\frac\s*\{\s*d\s*[a-zA-Z]?\s*\}\s*\{\s*d\s*[a-zA-Z]\s*\}|[a-zA-Z]'+(?:\s*\(\s*[a-zA-Z]\s*\))?)\s*=(?!=)"
)


# "C(10, 3)", "P(10, 3)": a count of combinations or permutations of whole numbers, the
# first no less than the second. It is no point named C or P (that reading drops the name:
# "A(1, 2)" is the point (1, 2)), so "C(10, 3)" is 120, never the pair (10, 3).
_COUNT = re.compile(r"^\s*\$?\s*([CP])\s*\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)\s*\$?\s*$")


def _count(text: str) -> str:
    """ "C(10, 3)" -> "\\binom{10}{3}", "P(10, 3)" -> "\\frac{10!}{7!}"; else ``text``."""
    match = _COUNT.match(text)
    if match is None or int(match.group(2)) < int(match.group(3)):
        return text
    kind, n, k = match.group(1), int(match.group(2)), int(match.group(3))
    return f"\\binom{{{n}}}{{{k}}}" if kind == "C" else f"\\frac{{{n}!}}{{{n - k}!}}"


def as_latex(text: str) -> str:
    """One answer as LaTeX, ready to read."""
    return _trig_in_radians(
        _DERIVATIVE_LABEL.sub("", math_from_phrase(_count(latex_from_plain_text(text))))
    )


def align(reference: str, answer: str) -> tuple[str, str]:
    """Both answers of a pair as LaTeX, each on its own."""
    return as_latex(reference), as_latex(answer)


__all__ = ["align", "as_latex"]
