"""Words and symbols that more than one reader of answers needs, each defined once.

* option letters of a multiple-choice question, and the lower-case letter that alone is a
  constant rather than an option (``e``);
* the words that join two answers into a list (``and``, ``or``);
* the fonts words are written in and those a variable is written in;
* the spellings of a relation (LaTeX, ASCII and Unicode) and the one each stands for;
* the words that scale a number ("3 thousand", "a dozen");
* units: those of a known kind with their exact factors (an inch is 0.0254 m by
  definition), speeds named in one word (``mph``), the words that raise a unit to a power
  (``square``, ``cubic``), and the words that follow a number as
  a unit though no conversion knows them (``5 apples``). A rate written with a slash or
  ``per`` (``km/h``, ``miles per hour``) is read from its two units (``units.py``);
* where a unit's name ends and the value written before one (``value_before_unit``):
  normalisation drops a unit from an answer's canonical form with it, and the symbolic
  engine's worker from the text it parses (``units.without_unit``).
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product

from services.mathcheck.latex_tokens import Kind, Token, join, strip

# The letters a multiple-choice option is named by.
CHOICE_LETTERS = frozenset("ABCDE")
# Lower-case letters that alone name a constant, not an option: "e" is Euler's number (but
# "(e)" and "option e" name the option; a lone "a" to "d" is still an option letter).
CONSTANT_LETTERS = frozenset("e")

# The words that join two answers into a list: "5 and 7", "x = 1 or x = 2".
JOINT_WORDS = ("and", "or")
# The words that offer another answer beside one: "5 (or 6)", "5 (maybe 6)", "5 \\text{ or 6}".
HEDGE_WORDS = frozenset((*JOINT_WORDS, "maybe", "possibly", "perhaps", "alternatively"))

# The fonts words and units are written in ("\\text{ cm}", "\\mathrm{FF}_{16}"), and the
# fonts a variable is written in ("4\\mathbf{k}" is 4k): regex alternations.
TEXT_FONT = "text|textbf|textit|textrm|textnormal|mathrm|mbox"
TEXT_FONTS = frozenset("\\" + name for name in TEXT_FONT.split("|"))  # as commands
VARIABLE_FONT = "mathbf|mathit"

# Every spelling of a relation, and the one spelling it is written as once read.
RELATION_SPELLINGS = {
    "\\geq": "\\ge",
    "\\geqslant": "\\ge",
    ">=": "\\ge",
    "≥": "\\ge",
    "\\leq": "\\le",
    "\\leqslant": "\\le",
    "<=": "\\le",
    "≤": "\\le",
    "\\neq": "\\ne",
    "!=": "\\ne",
    "≠": "\\ne",
    "\\gt": ">",
    "\\lt": "<",
}

# A relation with its sides swapped: "x > 2" is "2 < x".
REVERSED_RELATION = {"<": ">", ">": "<", "\\le": "\\ge", "\\ge": "\\le"}

# Words that multiply the number before them: "3 thousand", "2 dozen", "one hundred".
SCALE_WORDS = {
    "dozen": 12,
    "hundred": 100,
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
}

# Lengths, times, masses, volumes and money, each with its factor to the kind's base unit.
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


# Every spelling of a unit of a known kind: plurals too ("hours", "inches").
UNITS = {
    **_spellings("length", _LENGTH),
    **_spellings("time", _TIME),
    **_spellings("mass", _MASS),
    **_spellings("volume", _VOLUME),
    **_spellings("money", _MONEY),
    "hrs": ("time", Fraction(3600)),
    "lbs": ("mass", _MASS[("lb", "pound")]),
    # Speeds named in one word: a length per time, as "mi/h" and "km/h" read.
    "mph": ("length/time", _LENGTH[("mi", "mile")] / _TIME[("h", "hr", "hour")]),
    "kph": ("length/time", _LENGTH[("km", "kilometer", "kilometre")] / _TIME[("h", "hr", "hour")]),
}
# Every spelling of a unit of a known kind as a regex alternation, the longest first.
UNIT_NAME = "|".join(re.escape(name) for name in sorted(UNITS, key=len, reverse=True))
# Words before a unit that raise it to a power: "12 square centimeters", "3 cubic meters".
POWER_WORDS = {"square": 2, "sq.": 2, "sq": 2, "cubic": 3}
POWER_WORD = "|".join(re.escape(word) for word in POWER_WORDS)
# Words written after a number as its unit that name no unit of a known kind.
DECORATION_UNITS = (
    "square units", "sq units", "units", "unit", "gallons", "gallon", "months", "month",
    "years", "year", "degrees", "degree", "rad", "radians", "radian",
    "euros", "euro", "people", "persons", "person", "students", "student", "apples",
    "apple", "times", "ways", "pages", "books", "cookies", "marbles", "points",
)  # fmt: skip

# Every unit's spelling, by its first letter.
_UNITS_BY_INITIAL: dict[str, list[str]] = {}
for _name in (*UNITS, *DECORATION_UNITS):
    _UNITS_BY_INITIAL.setdefault(_name[0], []).append(_name)
# What may follow a length's name to square or cube it: "cm^2", "cm^{3}", "cm2" (each part
# may be left out).
_LENGTH_SUFFIXES = sorted(
    {"".join(parts) for parts in product(("^", ""), ("{", ""), ("2", "3", ""), ("}", ""))} - {""}
)


def unit_end(text: str, start: int) -> list[int]:
    """Where a unit's name written at ``start`` of lower-case ``text`` may end ("cm^2": a
    length may be squared or cubed)."""
    ends: list[int] = []
    for name in _UNITS_BY_INITIAL.get(text[start : start + 1], ()):
        if not text.startswith(name, start):
            continue
        end = start + len(name)
        ends.append(end)
        if UNITS.get(name, ("",))[0] == "length":
            ends.extend(
                end + len(suffix) for suffix in _LENGTH_SUFFIXES if text.startswith(suffix, end)
            )
    return ends


def _is_rate_tail(text: str) -> bool:
    """ " per hour", "/h", " / s": what follows a unit to make it a rate (letters last)."""
    rest = text.lstrip(" ")
    for joint in ("per", "/"):
        if rest.startswith(joint):
            word = rest[len(joint) :].lstrip(" ")
            return word.isascii() and word.isalpha()
    return False


def is_unit_phrase(text: str) -> bool:
    """ "cm", "square centimeters", "km per hour", "per pound": a unit after a number, maybe
    of area or volume, maybe a rate; a price per unit (but "per cent" is a percent)."""
    text = text.lower()
    if text.startswith("per "):
        rest = text[4:].lstrip(" ")
        if rest.split(" ")[0] not in ("cent", "cents") and len(rest) in unit_end(rest, 0):
            return True
    starts = [0]
    for word in POWER_WORDS:
        if text.startswith(word):
            after = len(word)
            while text[after : after + 1] == " ":
                after += 1
            starts.append(after)
    return any(
        end == len(text) or _is_rate_tail(text[end:])
        for start in starts
        for end in unit_end(text, start)
    )


def value_before_unit(tokens: list[Token]) -> list[Token] | None:
    """ "12 square centimeters" -> "12", "60 km per hour" -> "60", "10cm" -> "10": the value
    of a quantity; None when it ends in no unit."""
    if not any(token.kind is Kind.WORD for token in tokens):
        return None
    for index, token in enumerate(tokens):
        if token.kind is Kind.SPACE and index:
            last = tokens[index - 1]
            ends_value = last.kind is Kind.DIGITS or last.is_symbol("}") or last.named
            if ends_value and is_unit_phrase(join(tokens[index + 1 :])):
                return strip(tokens[:index])
    for index, token in enumerate(tokens):
        if token.kind is Kind.DIGITS and index + 1 < len(tokens):
            rest = join(tokens[index + 1 :])
            # "10cm", "10weeks": two letters or more ("10m" may be ten times m).
            glued = len(rest) >= 2 and rest[:2].isascii() and rest[:2].isalpha()
            if glued and len(rest) in unit_end(rest.lower(), 0):
                return strip(tokens[: index + 1])
    return None


__all__ = [
    "CHOICE_LETTERS",
    "CONSTANT_LETTERS",
    "DECORATION_UNITS",
    "HEDGE_WORDS",
    "POWER_WORD",
    "POWER_WORDS",
    "RELATION_SPELLINGS",
    "REVERSED_RELATION",
    "SCALE_WORDS",
    "TEXT_FONT",
    "TEXT_FONTS",
    "UNITS",
    "UNIT_NAME",
    "VARIABLE_FONT",
    "Unit",
    "is_unit_phrase",
    "unit_end",
    "value_before_unit",
]
