"""Quantities with units: ``3 hours`` against ``180 minutes``, ``2 m`` against ``200 cm``.

``read_quantity`` reads a number with a unit of a known kind (length, area, volume, time,
mass, money) as a ``Quantity``: its value, the kind and the exact factor to the kind's base
unit (an inch is 0.0254 m by definition), so that two quantities of one kind compare
exactly in one unit (``comparison.py``). A rate is a unit per another (``km/h``, ``m/s^2``,
``miles per hour``, ``mph``): its kind is the two kinds ("length/time") and its factor the
quotient of theirs, so ``36 km/h`` is ``10 m/s`` and not ``36 m/s``.
"""

from __future__ import annotations

import re

from services.mathcheck.answer_types import Number, Quantity
from services.mathcheck.normalization import normalize_answer, parse_number, unwrapped_quantity
from services.mathcheck.vocabulary import POWER_WORD, POWER_WORDS, Unit
from services.mathcheck.vocabulary import UNITS as _UNITS

# "12 cm^2", "12 square centimeters", "3 cubic meters", "\\frac{1}{2} hour", "180 minutes",
# and a rate: "36 km/h", "9.8 m/s^2", "60 miles per hour".
_QUANTITY = re.compile(
    rf"^(?P<value>.*?[\d}}])\s*~?\s*(?:(?P<prefix>{POWER_WORD})\s*)?(?P<name>[a-zA-Z]+)\.?"
    r"\s*(?:\^\s*\{?\s*(?P<power>[23])\s*\}?)?"
    r"(?:\s*(?:/|\bper\b)\s*(?P<per>[a-zA-Z]+)\.?\s*(?:\^\s*\{?\s*(?P<per_power>[23])\s*\}?)?)?$"
)
# "\\$12.50": an amount in dollars.
_DOLLARS = re.compile(r"^\\?\$\s*(?P<value>\d.*)$")


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
    if match is None or _glued_letter(match):
        return None
    prefix = match.group("prefix")
    power = POWER_WORDS[prefix.lower()] if prefix else int(match.group("power") or 1)
    unit = _unit(match.group("name"), power)
    per = match.group("per")
    if unit is not None and per is not None:
        per_unit = _unit(per, int(match.group("per_power") or 1), any_kind=True)
        unit = None if per_unit is None else (f"{unit[0]}/{per_unit[0]}", unit[1] / per_unit[1])
    number = _number(match.group("value")) if unit is not None else None
    if unit is None or number is None:
        return None
    kind, factor = unit
    # Spellings of one unit ("hour", "hours", "h") share a factor: the canonical form names
    # the unit by its kind and factor, so that "2 h" and "2 hours" read alike.
    return Quantity(
        number.parsed.value, kind, factor, number, f"{number.canonical} {kind}*{factor}"
    )


def _glued_letter(match: re.Match[str]) -> bool:
    """Whether the unit is one letter written against its number, not a rate: "10m" is ten
    times m, as "2t" is (a unit of one letter is spaced or wrapped: "10 m", "5\\text{m}",
    "5\\,m"; a rate keeps its letters: "10m/s")."""
    return (
        len(match.group("name")) == 1
        and match.group("prefix") is None
        and match.group("per") is None
        and match.end("value") == match.start("name")
    )


def _unit(name: str, power: int, any_kind: bool = False) -> Unit | None:
    """ "cm", 2 -> ("length^2", 1/10000); None for a name of no known kind, and for a power
    of other than a length unless ``any_kind`` (a time squared is only ever per it)."""
    unit = _UNITS.get(name.lower())
    if unit is None or power == 1:
        return unit
    kind, factor = unit
    if kind != "length" and not any_kind:
        return None
    return f"{kind}^{power}", factor**power


__all__ = ["read_quantity"]
