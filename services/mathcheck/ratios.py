"""Ratios of plain numbers: ``1:2:3``, ``2 \\colon 3``, ``2 to 3``, read in lowest terms.

A time of day is no ratio to reduce: ``20:34`` is not ``10:17``. Hours and two-digit
minutes (``20:34``, and ``8:34 p.m.`` or ``20:34:00`` as normalisation writes them) keep
their terms as written; a ratio in lowest terms reads alike either way, and ``2:4``, with
one digit after the colon, is still ``1:2``.
"""

from __future__ import annotations

import math
import re

from services.mathcheck.answer_types import Ratio
from services.mathcheck.normalization import normalize_answer, parse_number, strip_outer_delimiters

_RATIO_SEPARATOR = re.compile(r"\s*(?::|\\colon)\s*|\s+to\s+")
# Hours and minutes, none of them zero (a zero term is no ratio).
_CLOCK_TIME = re.compile(r"^(?P<hours>0?[1-9]|1\d|2[0-3]):(?P<minutes>0[1-9]|[1-5]\d)$")


def read_ratio(text: str) -> Ratio | None:
    """ "2:4:6" -> Ratio((1, 2, 3)): the same ratio in whole numbers with no common factor;
    None unless every term is a plain non-zero number."""
    bare = strip_outer_delimiters(text).strip()
    clock = _CLOCK_TIME.match(normalize_answer(bare))
    if clock is not None:
        written = (int(clock.group("hours")), int(clock.group("minutes")))
        return Ratio(written, ":".join(map(str, written)))
    parts = _RATIO_SEPARATOR.split(bare)
    if len(parts) < 2:
        return None
    numbers = [parse_number(normalize_answer(part)) for part in parts]
    values = [number.value for number in numbers if number is not None and not number.percent]
    if len(values) != len(parts) or 0 in values:
        return None
    scale = math.lcm(*(value.denominator for value in values))
    whole = [int(value * scale) for value in values]
    divisor = math.gcd(*whole)
    terms = tuple(term // divisor for term in whole)
    return Ratio(terms, ":".join(map(str, terms)))


__all__ = ["read_ratio"]
