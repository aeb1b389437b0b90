"""Mathematics said in words, written as the notation it stands for.

Answers rewritten in prose say ``x is at least 5`` for ``x \\ge 5`` (the bound may be in
math delimiters and name what it counts: ``at least $7$ boxes``; ``exactly 7`` is
``x = 7``), ``between -1 and 1 inclusive`` for ``[-1, 1]``, ``all real numbers except 3``
for ``x \\ne 3``, and hedge a rounding (``approximately 1.4142``), name a chance (``1 in 4
chance``) or the kind of an object (``the line y = 2``). Each phrase is rewritten only
when the whole answer is that phrase, so a sentence that merely contains "at least" is
left alone.
"""

from __future__ import annotations

import re

from services.mathcheck.latex_tokens import join, tokenize, unwrap
from services.mathcheck.vocabulary import TEXT_FONTS

_NUMBER = r"[+-]?\d+(?:\.\d+)?(?:/\d+)?"
_SUBJECT = (
    r"(?:(?P<var>[a-zA-Z])\s+(?:is|must\s+be)\s+|(?:all\s+)?(?:real\s+)?(?:numbers|values)"
    r"(?:\s+of\s+[a-zA-Z])?\s+(?:that\s+are\s+)?)?"
)
# "x is at least 5", "greater than 2", "all real numbers less than 3".
_COMPARISONS = {
    "exactly": "=",
    "at least": "\\ge",
    "no less than": "\\ge",
    "greater than or equal to": "\\ge",
    "at most": "\\le",
    "no more than": "\\le",
    "less than or equal to": "\\le",
    "greater than": ">",
    "more than": ">",
    "less than": "<",
    "fewer than": "<",
}
# A comparison with no unknown named ("at least 7"), as the interval of values it says.
_INTERVALS = {
    "\\ge": "[{bound}, \\infty)",
    ">": "({bound}, \\infty)",
    "\\le": "(-\\infty, {bound}]",
    "<": "(-\\infty, {bound})",
}
_COMPARISON = re.compile(
    rf"^{_SUBJECT}(?P<words>{'|'.join(sorted(_COMPARISONS, key=len, reverse=True))})"
    # The bound may be in math delimiters and name what it counts: "at least $7$ boxes".
    rf"\s+\$?(?P<bound>{_NUMBER})\$?(?:\s+(?!(?:or|and)\b)[a-zA-Z]+)?$",
    re.IGNORECASE,
)
# "between -1 and 1 (inclusive)", "from -1 to 1".
_BETWEEN = re.compile(
    rf"^{_SUBJECT}between\s+(?P<low>{_NUMBER})\s+and\s+(?P<high>{_NUMBER})"
    r"(?P<inclusive>,?\s+inclusive)?$",
    re.IGNORECASE,
)
_FROM_TO = re.compile(rf"^{_SUBJECT}from\s+(?P<low>{_NUMBER})\s+to\s+(?P<high>{_NUMBER})$")
# "all real numbers except 3".
_EXCEPT = re.compile(
    rf"^(?:all\s+)?real\s+numbers\s+(?:except|other\s+than|but)\s+(?P<value>{_NUMBER})$",
    re.IGNORECASE,
)
# "approximately 1.4142", "about 3.14", "\\approx 1.414": the rounding is the answer.
_HEDGE = re.compile(r"^(?:approximately|approx\.?|about|roughly|around|\\approx)\s*", re.IGNORECASE)
# "25% chance", "a 1/4 probability", "1 in 4 chance": the chance is the number.
_CHANCE = re.compile(
    r"^(?:an?\s+)?(?P<chance>.+?)\s+(?:chance|probability|likelihood)$", re.IGNORECASE
)


# "the line y = 2", "the point (1, 2)": the object's kind before the object.
_KIND = re.compile(
    r"^the\s+(?:line|curve|plane|point|circle|parabola|graph|function|equation)\s+(?=\S)",
    re.IGNORECASE,
)


# A phrase in a text font is looked for in texts up to this long: no phrase is longer, and
# a whole completion (lenient extraction asks) is not scanned for one.
_FONT_PHRASE_LENGTH = 300


def math_from_phrase(text: str) -> str:
    """``text`` as notation when the whole of it is one of the phrases above, else as is.
    The phrase may be written in a text font: ``\\text{at least } 7``."""
    stripped = text.strip()
    if len(stripped) <= _FONT_PHRASE_LENGTH and any(font in stripped for font in TEXT_FONTS):
        stripped = join(unwrap(tokenize(stripped), TEXT_FONTS)).strip()
    named = _KIND.sub("", stripped, count=1)
    if named != stripped:
        return named
    comparison = _COMPARISON.match(stripped)
    if comparison is not None:
        relation = _COMPARISONS[comparison.group("words").lower()]
        bound, variable = comparison.group("bound"), comparison.group("var")
        if variable is None and relation != "=":
            # No unknown named: the values it says, whatever the other side calls them.
            return _INTERVALS[relation].format(bound=bound)
        return f"{variable or 'x'} {relation} {bound}"
    between = _BETWEEN.match(stripped) or _FROM_TO.match(stripped)
    if between is not None:
        inclusive = between.re is _FROM_TO or between.group("inclusive") is not None
        low, high, variable = between.group("low"), between.group("high"), between.group("var")
        if variable is None:
            return f"[{low}, {high}]" if inclusive else f"({low}, {high})"
        relation = "\\le" if inclusive else "<"
        return f"{low} {relation} {variable} {relation} {high}"
    excluded = _EXCEPT.match(stripped)
    if excluded is not None:
        return f"x \\ne {excluded.group('value')}"
    hedged = _HEDGE.sub("", stripped, count=1)
    if hedged != stripped:
        return hedged
    chance = _CHANCE.match(stripped)
    return chance.group("chance") if chance is not None else text


__all__ = ["math_from_phrase"]
