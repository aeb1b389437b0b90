"""Ratios of plain numbers: ``1:2:3``, ``2 \\colon 3``, ``2 to 3``, read in lowest terms."""

from __future__ import annotations

import math
import re

from services.mathcheck.answer_types import Ratio
from services.mathcheck.normalization import normalize_answer, parse_number, strip_outer_delimiters

_RATIO_SEPARATOR = re.compile(r"\s*(?::|\\colon)\s*|\s+to\s+")


def read_ratio(text: str) -> Ratio | None:
    """ "2:4:6" -> Ratio((1, 2, 3)): the same ratio in whole numbers with no common factor;
    None unless every term is a plain non-zero number."""
    parts = _RATIO_SEPARATOR.split(strip_outer_delimiters(text).strip())
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
