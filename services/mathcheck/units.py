"""Quantities with units: ``3 hours`` against ``180 minutes``, ``2 m`` against ``200 cm``.

Alone, a unit is decoration (``5 cm`` is ``5``, normalisation drops it). When both sides
carry a unit of the same kind, the values are compared in one unit, so ``1.5 hours`` equals
``90 minutes`` and ``3 hours`` does not equal ``3 minutes``. Factors are exact (an inch is
0.0254 m by definition), so the comparison stays exact.
"""

from __future__ import annotations

import re
from fractions import Fraction

from services.mathcheck.normalization import normalize_answer, parse_number, unwrapped_quantity

_LENGTH: dict[tuple[str, ...], Fraction] = {
    ("mm", "millimeter", "millimetre"): Fraction(1, 1000),
    ("cm", "centimeter", "centimetre"): Fraction(1, 100),
    ("m", "meter", "metre"): Fraction(1),
    ("km", "kilometer", "kilometre"): Fraction(1000),
    ("in", "inch"): Fraction(254, 10000),
    ("ft", "foot", "feet"): Fraction(3048, 10000),
    ("yd", "yard"): Fraction(9144, 10000),
    ("mi", "mile"): Fraction(1609344, 1000),
}
_TIME: dict[tuple[str, ...], Fraction] = {
    ("s", "sec", "second"): Fraction(1),
    ("min", "minute"): Fraction(60),
    ("h", "hr", "hour"): Fraction(3600),
    ("day",): Fraction(86400),
    ("week",): Fraction(604800),
}
_MASS: dict[tuple[str, ...], Fraction] = {
    ("mg", "milligram"): Fraction(1, 1000),
    ("g", "gram"): Fraction(1),
    ("kg", "kilogram"): Fraction(1000),
    ("lb", "pound"): Fraction(45359237, 100000),
    ("oz", "ounce"): Fraction(45359237, 1600000),
}
_VOLUME: dict[tuple[str, ...], Fraction] = {
    ("ml", "milliliter", "millilitre"): Fraction(1),
    ("l", "liter", "litre"): Fraction(1000),
}
_MONEY: dict[tuple[str, ...], Fraction] = {("dollar", "usd"): Fraction(100), ("cent",): Fraction(1)}


Unit = tuple[str, Fraction]  # (kind, factor to the kind's base unit)


def _spellings(kind: str, table: dict[tuple[str, ...], Fraction]) -> dict[str, Unit]:
    spelled: dict[str, Unit] = {}
    for names, factor in table.items():
        for name in names:
            spelled[name] = (kind, factor)
            if len(name) > 2:  # "hours", "inches"; but "ms" and "hs" are not plurals
                spelled[name + ("es" if name.endswith("ch") else "s")] = (kind, factor)
    return spelled


_UNITS = {
    **_spellings("length", _LENGTH),
    **_spellings("time", _TIME),
    **_spellings("mass", _MASS),
    **_spellings("volume", _VOLUME),
    **_spellings("money", _MONEY),
    "hrs": ("time", Fraction(3600)),
    "mins": ("time", Fraction(60)),
    "secs": ("time", Fraction(1)),
    "lbs": ("mass", _MASS[("lb", "pound")]),
}
# "12 cm^2", "12 square centimeters", "3 cubic meters", "\\frac{1}{2} hour", "180 minutes".
_QUANTITY = re.compile(
    r"^(?P<value>.*?[\d}])\s*~?\s*(?:(?P<prefix>square|sq\.?|cubic)\s*)?(?P<name>[a-zA-Z]+)\.?"
    r"\s*(?:\^\s*\{?\s*(?P<power>[23])\s*\}?)?$"
)
# "\\$12.50": an amount in dollars.
_DOLLARS = re.compile(r"^\\?\$\s*(?P<value>\d.*)$")
_POWERS = {"square": 2, "sq": 2, "sq.": 2, "cubic": 3}


def _value(text: str) -> Fraction | None:
    number = parse_number(normalize_answer(text))
    return None if number is None or number.percent else number.value


def _quantity(text: str) -> tuple[Fraction, Unit] | None:
    """ "1.5 \\text{ hours}" -> (3/2, ("time", 3600)); None for anything else."""
    text = unwrapped_quantity(text)
    dollars = _DOLLARS.match(text)
    if dollars is not None:
        amount = _value(dollars.group("value"))
        return None if amount is None else (amount, _UNITS["dollar"])
    match = _QUANTITY.match(text)
    if match is None:
        return None
    unit = _UNITS.get(match.group("name").lower())
    value = _value(match.group("value")) if unit is not None else None
    if unit is None or value is None:
        return None
    prefix = match.group("prefix")
    power = _POWERS[prefix.lower()] if prefix else int(match.group("power") or 1)
    if power != 1 and unit[0] != "length":
        return None
    kind, factor = unit
    return value, (kind if power == 1 else f"{kind}^{power}", factor**power)


def _written(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def in_common_unit(reference: str, answer: str) -> tuple[str, str] | None:
    """Both values in the reference's unit when the sides are quantities of one kind in
    different units: ("3 hours", "180 minutes") -> ("3", "3"); else None."""
    left, right = _quantity(reference), _quantity(answer)
    if left is None or right is None or left[1][0] != right[1][0] or left[1] == right[1]:
        return None
    return _written(left[0]), _written(right[0] * right[1][1] / left[1][1])


__all__ = ["in_common_unit"]
