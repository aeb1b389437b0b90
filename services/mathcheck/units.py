"""Quantities with units: ``3 hours`` against ``180 minutes``, ``2 m`` against ``200 cm``.

``written_quantity`` finds a number with a unit of a known kind (length, area, volume,
time, mass, money): the amount as written, the kind and the exact factor to the kind's base
unit (an inch is 0.0254 m by definition); the reader reads the amount and makes it a
``Quantity``, so that two quantities of one kind compare exactly in one unit
(``comparison.py``). A rate is a unit per another (``km/h``, ``m/s^2``,
``miles per hour``, ``mph``): its kind is the two kinds ("length/time") and its factor the
quotient of theirs, so ``36 km/h`` is ``10 m/s`` and not ``36 m/s``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from services.mathcheck.latex_tokens import (
    SPACE,
    Kind,
    Token,
    answer_tokens,
    join,
    plain_group,
    rescan,
    skip_spaces,
    strip,
    symbol,
    tokenize,
    unwrap,
    without_delimiters,
    without_spaces,
)
from services.mathcheck.vocabulary import (
    DECORATION_UNITS,
    HEDGE_WORDS,
    POWER_WORDS,
    TEXT_FONTS,
    VARIABLE_FONT,
    Unit,
    value_before_unit,
)
from services.mathcheck.vocabulary import UNITS as _UNITS

_NOTE_FONTS = TEXT_FONTS | frozenset("\\" + name for name in VARIABLE_FONT.split("|"))
_VARIABLE_FONTS = frozenset("\\" + name for name in VARIABLE_FONT.split("|"))
_UNIT_SPACING = frozenset(("\\,", "\\;", "\\:", "\\ "))


def quantity_words(tokens: list[Token]) -> list[Token]:
    """ "1.5 \\,\\text{ hours}" -> "1.5 hours": a quantity with its unit as plain words,
    from an answer's tokens (``answer_tokens``)."""
    spaced = [
        SPACE if token.is_command(*_UNIT_SPACING) or token.is_symbol("~") else token
        for token in unwrap(tokens, TEXT_FONTS, spaced=True)
    ]
    return rescan(strip(spaced))


def _closing_note(tokens: list[Token]) -> tuple[list[Token], str, str] | None:
    """ "2 \\text{ (only solution)}", "8 \\text{ cm}^2": the value, the font and the words
    of a closing note in a font (maybe raised to a power) after it; None if none ends it."""
    for index, token in enumerate(tokens):
        if token.kind is not Kind.COMMAND or token.text not in _NOTE_FONTS:
            continue
        if not any(before.kind is not Kind.SPACE for before in tokens[:index]):
            continue
        group = plain_group(tokens, index + 1)
        if group is None or not _is_power_or_nothing(tokens[group[1] + 1 :]):
            continue
        return tokens[:index], token.text, join(tokens[group[0] + 1 : group[1]])
    return None


def _is_power_or_nothing(tokens: list[Token]) -> bool:
    """ "", "^2", "^{3}": nothing but a one-digit power (spaces aside)."""
    rest = without_spaces(tokens)
    if not rest:
        return True
    if not rest[0].is_symbol("^"):
        return False
    rest = rest[1:]
    if rest[:1] and rest[0].is_symbol("{"):
        rest = rest[1:]
    if not rest or rest[0].kind is not Kind.DIGITS or len(rest[0].text) != 1:
        return False
    return rest[1:] == [] or (len(rest) == 2 and rest[1].is_symbol("}"))


def _is_note(value: list[Token], font: str, note: str) -> bool:
    """Whether ``\\font{note}`` after ``value`` is a note or a unit, not part of the value.

    Words in text are a note ("(only solution)", "cm", "apples"), unless they offer another
    answer ("(or 6)", "or maybe 7": ``HEDGE_WORDS``); letters alone in a
    font variables are written in are variables ("4\\mathbf{k}", "x\\mathbf{y}"), and one
    letter in a text font is a unit only when it is one of the vocabulary and follows a
    number ("5\\text{ m}"; but "a\\mathrm{b}" is ab and "x\\text{ m}" stays whole).
    """
    words = note.strip()
    if any(token.text.lower() in HEDGE_WORDS for token in tokenize(words)):
        return False  # "5 \\text{ (or 6)}": another answer offered, not a note
    if not words.isalpha():
        return True
    if font in _VARIABLE_FONTS:
        return len(words) > 1 and (words.lower() in _UNITS or words.lower() in DECORATION_UNITS)
    if len(words) == 1:
        last = value[-1:]
        ends_number = bool(last) and (
            last[0].kind is Kind.DIGITS or last[0].is_symbol("}") or last[0].is_command("\\pi")
        )
        return words.lower() in _UNITS and ends_number
    return True


def without_note(text: str) -> str:
    """ "2 \\text{ (only solution)}" -> "2", "8 \\text{ cm}^3" -> "8": the value before a
    closing note or unit in text, for the symbolic engine; ``text`` when it ends in none."""
    note = _closing_note(tokenize(text))
    if note is not None:
        value = note[0]
        while value and (
            value[-1].kind is Kind.SPACE
            or value[-1].is_command(*_UNIT_SPACING)
            or value[-1].is_symbol("~")
        ):
            value = value[:-1]
        if _is_note(value, note[1], note[2]):
            return without_unit(join(value))
    return without_unit(text)


def without_unit(text: str) -> str:
    """ "1.047 \\text{ rad}" -> "1.047", "8\\pi \\text{ cm}^3" -> "8\\pi": the value of a
    quantity, for the symbolic engine; ``text`` itself when it ends in no unit."""
    value = value_before_unit(quantity_words(answer_tokens(text)))
    return text if value is None else join(value)


@dataclass(frozen=True)
class _Written:
    """A quantity as written: "12 cm^2", "12 square centimeters", "3 cubic meters",
    "\\frac{1}{2} hour", "180 minutes", and a rate: "36 km/h", "9.8 m/s^2", "60 miles per
    hour"."""

    value: tuple[Token, ...]
    name: str
    power: int
    per: str | None = None
    per_power: int = 1
    # Whether the unit's letters are written against the value: "10m".
    glued: bool = False


def _power_at(tokens: list[Token], index: int) -> tuple[int, int]:
    """ "^2", "^{3}" at ``index``: the power (1 when none is written) and where it ends."""
    position = skip_spaces(tokens, index)
    if position >= len(tokens) or not tokens[position].is_symbol("^"):
        return 1, index
    position = skip_spaces(tokens, position + 1)
    braced = position < len(tokens) and tokens[position].is_symbol("{")
    if braced:
        position = skip_spaces(tokens, position + 1)
    if position >= len(tokens) or tokens[position].text not in ("2", "3"):
        return 1, index
    power = int(tokens[position].text)
    # Either brace may be left out ("^{2", "^2}").
    after = skip_spaces(tokens, position + 1)
    closed = after < len(tokens) and tokens[after].is_symbol("}")
    return power, after + 1 if closed else position + 1


def _name_at(tokens: list[Token], index: int) -> tuple[str, int] | None:
    """A unit's name (letters, maybe a full stop after) at ``index``, and where it ends."""
    if index >= len(tokens) or tokens[index].kind is not Kind.WORD:
        return None
    end = index + 1
    if end < len(tokens) and tokens[end].is_symbol("."):
        end += 1
    return tokens[index].text, end


def _unit_tail(tokens: list[Token], start: int) -> _Written | None:
    """The unit after the value ``tokens[:start]``: maybe "~", a power word, the name, its
    power, and maybe "/" or "per" and a second unit with its power, to the end."""
    index = skip_spaces(tokens, start)
    if index < len(tokens) and tokens[index].is_symbol("~"):
        index = skip_spaces(tokens, index + 1)
    if index >= len(tokens) or tokens[index].kind is not Kind.WORD:
        return None
    readings: list[tuple[int, str, int]] = []  # (power word's power, name, where it starts)
    word = tokens[index].text
    for prefix, power in POWER_WORDS.items():
        bare = prefix.rstrip(".")
        if word == bare and (prefix == bare or tokens[index + 1 : index + 2] == [symbol(".")]):
            after = skip_spaces(tokens, index + 1 + (prefix != bare))
            readings.append((power, "", after))
        elif prefix == bare and word.startswith(prefix) and len(word) > len(prefix):
            readings.append((power, word[len(prefix) :], index))
    readings.append((0, "", index))
    for prefix_power, glued_name, at in readings:
        if glued_name:
            name, end = glued_name, at + 1
            if end < len(tokens) and tokens[end].is_symbol("."):
                end += 1
        else:
            found = _name_at(tokens, at)
            if found is None:
                continue
            name, end = found
        power, end = _power_at(tokens, end)
        per: str | None = None
        per_power = 1
        joint = skip_spaces(tokens, end)
        if joint < len(tokens) and (tokens[joint].is_symbol("/") or tokens[joint].text == "per"):
            found = _name_at(tokens, skip_spaces(tokens, joint + 1))
            if found is None:
                continue
            per, end = found
            per_power, end = _power_at(tokens, end)
        if skip_spaces(tokens, end) != len(tokens):
            continue
        return _Written(
            tuple(tokens[:start]),
            name,
            prefix_power or power,
            per,
            per_power,
            glued=not prefix_power and index == start,
        )
    return None


def _quantity_written(tokens: list[Token]) -> _Written | None:
    """The value and the unit of a quantity as written; None for anything else. The value
    is the shortest that ends in a digit or a brace."""
    for start in range(1, len(tokens)):
        last = tokens[start - 1]
        if last.kind is Kind.DIGITS or last.is_symbol("}"):
            written = _unit_tail(tokens, start)
            if written is not None:
                return written
    return None


def _dollars(tokens: list[Token]) -> list[Token] | None:
    """ "\\$12.50" -> "12.50": an amount in dollars."""
    if not tokens or not (tokens[0].is_command("\\$") or tokens[0].is_symbol("$")):
        return None
    value = skip_spaces(tokens, 1)
    digits = value < len(tokens) and tokens[value].kind is Kind.DIGITS
    return tokens[value:] if digits else None


@dataclass(frozen=True)
class WrittenQuantity:
    """A quantity as its unit says: the amount as written (without delimiters), the kind
    and exact factor of the unit, and the unit as the quantity's canonical form names it
    (spellings of one unit share it: "2 h" and "2 hours" read alike). What the amount's
    value is, the reader reads (``reading.py``)."""

    amount: tuple[Token, ...]
    kind: str
    factor: Fraction
    unit: str


def written_quantity(written_tokens: list[Token]) -> WrittenQuantity | None:
    """ "1.5 \\text{ hours}" -> ("1.5", "time", 3600, ...); None for anything else.
    ``written_tokens`` are an answer's, without delimiters (``latex_tokens.answer_tokens``),
    read with its unit's fonts and spacing taken off."""
    tokens = quantity_words(written_tokens)
    dollars = _dollars(tokens)
    if dollars is not None:
        kind, factor = _UNITS["dollar"]
        return WrittenQuantity(tuple(without_delimiters(dollars)), kind, factor, "dollar")
    written = _quantity_written(tokens)
    if written is None or _glued_letter(written):
        return None
    unit = _unit(written.name, written.power)
    if unit is not None and written.per is not None:
        per_unit = _unit(written.per, written.per_power, any_kind=True)
        unit = None if per_unit is None else (f"{unit[0]}/{per_unit[0]}", unit[1] / per_unit[1])
    if unit is None:
        return None
    kind, factor = unit
    amount = tuple(without_delimiters(list(written.value)))
    return WrittenQuantity(amount, kind, factor, f"{kind}*{factor}")


def _glued_letter(written: _Written) -> bool:
    """Whether the unit is one letter written against its number, not a rate: "10m" is ten
    times m, as "2t" is (a unit of one letter is spaced or wrapped: "10 m", "5\\text{m}",
    "5\\,m"; a rate keeps its letters: "10m/s")."""
    return len(written.name) == 1 and written.per is None and written.glued


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


__all__ = ["WrittenQuantity", "quantity_words", "without_note", "without_unit", "written_quantity"]
