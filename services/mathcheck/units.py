"""Quantities with units: ``3 hours`` against ``180 minutes``, ``2 m`` against ``200 cm``.

``read_quantity`` reads a number with a unit of a known kind (length, area, volume, time,
mass, money) as a ``Quantity``: its value, the kind and the exact factor to the kind's base
unit (an inch is 0.0254 m by definition), so that two quantities of one kind compare
exactly in one unit (``comparison.py``).
"""

from __future__ import annotations

import re

from services.mathcheck.answer_types import Number, Quantity
from services.mathcheck.normalization import normalize_answer, parse_number, unwrapped_quantity
from services.mathcheck.vocabulary import UNITS as _UNITS

# "12 cm^2", "12 square centimeters", "3 cubic meters", "\\frac{1}{2} hour", "180 minutes".
_QUANTITY = re.compile(
    r"^(?P<value>.*?[\d}])\s*~?\s*(?:(?P<prefix>square|sq\.?|cubic)\s*)?(?P<name>[a-zA-Z]+)\.?"
    r"\s*(?:\^\s*\{?\s*(?P<power>[23])\s*\}?)?$"
)
# "\\$12.50": an amount in dollars.
_DOLLARS = re.compile(r"^\\?\$\s*(?P<value>\d.*)$")
_POWERS = {"square": 2, "sq": 2, "sq.": 2, "cubic": 3}


def _number(text: str) -> Number | None:
    canonical = normalize_answer(text)
    parsed = parse_number(canonical)
    return None if parsed is None or parsed.percent else Number(parsed, canonical)


def read_quantity(text: str) -> Quantity | None:
    """ "1.5 \\text{ hours}" -> Quantity(3/2, "time", 3600, ...); None for anything else."""
    text = unwrapped_quantity(text)
    dollars = _DOLLARS.match(text)
    if dollars is not None:
        amount = _number(dollars.group("value"))
        if amount is None:
            return None
        kind, factor = _UNITS["dollar"]
        return Quantity(amount.parsed.value, kind, factor, amount, f"{amount.canonical} dollar")
    match = _QUANTITY.match(text)
    if match is None:
        return None
    name = match.group("name").lower()
    unit = _UNITS.get(name)
    number = _number(match.group("value")) if unit is not None else None
    if unit is None or number is None:
        return None
    prefix = match.group("prefix")
    power = _POWERS[prefix.lower()] if prefix else int(match.group("power") or 1)
    if power != 1 and unit[0] != "length":
        return None
    kind, factor = unit
    if power != 1:
        kind, factor = f"{kind}^{power}", factor**power
    # Spellings of one unit ("hour", "hours", "h") share a factor: the canonical form names
    # the unit by its kind and factor, so that "2 h" and "2 hours" read alike.
    return Quantity(
        number.parsed.value, kind, factor, number, f"{number.canonical} {kind}*{factor}"
    )


__all__ = ["read_quantity"]
