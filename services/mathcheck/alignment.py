"""Rewrite a pair of answers into comparable forms before normalisation.

Plain-text and Unicode mathematics (``sqrt(3)/2``, ``2pi``, ``x²``) is first written as
LaTeX on both sides, mathematics said in words written as notation (``at least 5``), and
a derivative's name (``\\frac{dy}{dx} =``) dropped. Then some
notations only mean something next to the other side of the comparison:

* a multiple-choice option given with its value, ``(C) 12``, answers both ``C`` and ``12``:
  it is compared by letter with a letter and by value with a value;
* a number in a base (``1011_2``) equals its digits and its value (``1011``, ``11``);
* a ``\\pm`` against a list of two solutions stands for both signs;
* an angle in degrees, ``30^\\circ``, equals ``\\frac{\\pi}{6}`` when the other side is in
  radians (has a ``\\pi`` and no degree sign); alone, a degree sign is only decoration.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from services.mathcheck.normalization import (
    normalize_answer,
    parse_number,
    strip_outer_delimiters,
)
from services.mathcheck.phrases import math_from_phrase
from services.mathcheck.plain_text_math import latex_from_plain_text
from services.mathcheck.structures import split_top_level
from services.mathcheck.vocabulary import CHOICE_LETTER, ONE_CHOICE_LETTER

# "(C) 12", "\text{(C)} 12", "C) 12", "C. 12", "(C): 12": an option letter, then its value.
_LABELLED_CHOICE = re.compile(
    r"^\s*\$?\s*(?:\\text(?:bf)?\s*\{\s*)?"
    rf"(?:\(({CHOICE_LETTER})\)|({CHOICE_LETTER})[.):])"
    r"\s*\}?\s*\$?\s*:?\s*(?P<value>\S.*?)\s*$"
)
_ANOTHER_LABEL = re.compile(rf"\(\s*{CHOICE_LETTER}\s*\)")

# A rule for a notation on its first argument, against the second; None when it does not
# apply. ``_either_way`` applies it with the notation on either side.
OneWay = Callable[[str, str], tuple[str, str] | None]


def _either_way(rule: OneWay, reference: str, answer: str) -> tuple[str, str]:
    """``rule`` applied to the pair in both orders: symmetric by construction."""
    aligned = rule(reference, answer)
    if aligned is not None:
        return aligned
    swapped = rule(answer, reference)
    return (reference, answer) if swapped is None else (swapped[1], swapped[0])


def _labelled_choice(text: str) -> tuple[str, str] | None:
    match = _LABELLED_CHOICE.match(text)
    if match is None or _ANOTHER_LABEL.search(match.group("value")):
        return None
    if not match.group("value").strip("}$ "):
        return None  # "\\text{(C)}": the letter alone, its closing brace is not a value
    return match.group(1) or match.group(2), match.group("value")


def _align_choices(reference: str, answer: str) -> tuple[str, str]:
    labelled_reference = _labelled_choice(reference)
    labelled_answer = _labelled_choice(answer)
    if labelled_reference is not None and labelled_answer is not None:
        if labelled_reference[0] != labelled_answer[0]:
            return labelled_reference[0], labelled_answer[0]
        return labelled_reference[1], labelled_answer[1]
    return _either_way(_labelled_against_other, reference, answer)


def _labelled_against_other(labelled: str, other: str) -> tuple[str, str] | None:
    """ "(C) 12" against "C" is "C"; against anything else, its value "12"."""
    choice = _labelled_choice(labelled)
    if choice is None:
        return None
    letter, value = choice
    if ONE_CHOICE_LETTER.match(normalize_answer(other)):
        return letter, normalize_answer(other)
    return value, other


_DEGREE_MARK = re.compile(
    r"\^\s*\{?\s*\\circ\s*\}?|°|\\degree\b|(?<=\d)\s*(?:\\text\{\s*)?degrees?\b"
)
_PI = re.compile(r"\\pi\b|π")


def _in_radians(text: str) -> str | None:
    """ "30^\\circ" -> "\\frac{\\pi}{6}"; a list of angles element by element; else None."""
    pieces = [piece.strip() for piece in text.split(",")]
    converted: list[str] = []
    for piece in pieces:
        if not _DEGREE_MARK.search(piece):
            return None
        number = parse_number(normalize_answer(piece))
        if number is None or number.percent or number.decimal_places is not None:
            return None
        radians = number.value / 180
        converted.append(_pi_times(radians))
    return ", ".join(converted)


def _pi_times(value: Fraction) -> str:
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    numerator, denominator = abs(value.numerator), value.denominator
    top = "\\pi" if numerator == 1 else f"{numerator}\\pi"
    return sign + (top if denominator == 1 else f"\\frac{{{top}}}{{{denominator}}}")


_TRIG = re.compile(r"\\(?:sin|cos|tan|cot|sec|csc)\b")
_ANGLE_IN_DEGREES = re.compile(r"(\d+(?:\.\d+)?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|°)")


def _trig_in_radians(text: str) -> str:
    """ "\\sin 30^\\circ" -> "\\sin (30\\pi/180)": a degree sign under a trig function counts."""
    if _TRIG.search(text) is None:
        return text
    return _ANGLE_IN_DEGREES.sub(r"(\1\\pi/180)", text)


def _align_angles(reference: str, answer: str) -> tuple[str, str]:
    reference, answer = _trig_in_radians(reference), _trig_in_radians(answer)
    return _either_way(_degrees_against_radians, reference, answer)


def _degrees_against_radians(degrees: str, radians: str) -> tuple[str, str] | None:
    in_degrees = _DEGREE_MARK.search(degrees) and not _PI.search(degrees)
    in_radians = _PI.search(radians) and not _DEGREE_MARK.search(radians)
    if not (in_degrees and in_radians):
        return None
    converted = _in_radians(degrees)
    return None if converted is None else (converted, radians)


_NAME = r"[a-zA-Z](?:_\{?\w+\}?)?"
_ASSIGNMENT = re.compile(rf"^\s*({_NAME})\s*=\s*([^=]+?)\s*$")
_NAMED_TUPLE = re.compile(rf"^\s*\(\s*({_NAME}(?:\s*,\s*{_NAME})+)\s*\)\s*=\s*\((.+)\)\s*$")
_AND = re.compile(r"\s*(?:\\text\{\s*and\s*\}|\band\b)\s*")


def _named_values(text: str) -> list[tuple[str, str]] | None:
    """ "a = 2, b = 3" and "(a, b) = (2, 3)" -> [("a", "2"), ("b", "3")]; distinct names only."""
    text = strip_outer_delimiters(text)
    named = _NAMED_TUPLE.match(text)
    if named is not None:
        names = [name.strip() for name in named.group(1).split(",")]
        values = split_top_level(named.group(2), ",")
        if values is None or len(values) != len(names):
            return None
        pairs = list(zip(names, (value.strip() for value in values), strict=True))
    else:
        parts = split_top_level(_AND.sub(",", text), ",")
        if parts is None or len(parts) < 2:
            return None
        matches = [_ASSIGNMENT.match(part) for part in parts]
        if any(match is None for match in matches):
            return None
        pairs = [(match.group(1), match.group(2)) for match in matches if match is not None]
    distinct = {name for name, _ in pairs}
    if len(distinct) != len(pairs) or len({name[0] for name in distinct}) == 1:
        return None  # "x = 1, x = 2" and "x_1 = 1, x_2 = 2" list the roots of one unknown
    return pairs


def _unnamed_values(text: str) -> list[str] | None:
    """ "(2, 3)" or "2, 3" -> ["2", "3"]."""
    text = strip_outer_delimiters(text).strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    if "=" in text:
        return None
    parts = split_top_level(text, ",")
    if parts is None or len(parts) < 2:
        return None
    return [part.strip() for part in parts]


def _tuple(values: list[str]) -> str:
    return "(" + ", ".join(values) + ")"


_GROUP_SEPARATOR = re.compile(r"\s*(?:;|\\text\{\s*(?:or|and)\s*\}|,?\s*\b(?:or|and)\b)\s*")


def _named_groups(text: str) -> list[list[tuple[str, str]]] | None:
    """ "x = 1, y = 2 or x = 3, y = 4": solutions of a system, the same names in each."""
    segments = _GROUP_SEPARATOR.split(strip_outer_delimiters(text))
    if len(segments) < 2:
        return None
    groups: list[list[tuple[str, str]]] = []
    for segment in segments:
        group = _named_values(segment)
        if group is None:
            return None
        groups.append(group)
    if len({frozenset(name for name, _ in group) for group in groups}) != 1:
        return None
    return groups


def _tuples(text: str, arity: int) -> list[str] | None:
    """ "(3, 4), (1, 2)" -> ["(3, 4)", "(1, 2)"] when every tuple has ``arity`` entries."""
    parts = split_top_level(strip_outer_delimiters(text), ",")
    if parts is None or len(parts) < 2:
        return None
    tuples = [part.strip() for part in parts]
    for item in tuples:
        entries = split_top_level(item[1:-1], ",") if item[:1] + item[-1:] == "()" else None
        if entries is None or len(entries) != arity:
            return None
    return tuples


def _groups_against_tuples(grouped: str, other: str) -> tuple[str, str] | None:
    """Solutions of a system against a list of tuples: each group in the first's name order."""
    groups = _named_groups(grouped)
    if groups is None:
        return None
    order = [name for name, _ in groups[0]]
    if _tuples(other, len(order)) is None:
        return None
    return ", ".join(_tuple([dict(group)[name] for name in order]) for group in groups), other


def _align_assignments(reference: str, answer: str) -> tuple[str, str]:
    """Named values compare name by name, and with a bare tuple in the order written:
    "a = 2, b = 3" = "(a, b) = (2, 3)" = "(2, 3)", but not "(3, 2)" nor "b = 2, a = 3"."""
    named_reference, named_answer = _named_values(reference), _named_values(answer)
    if named_reference is not None and named_answer is not None:
        answer_by_name = dict(named_answer)
        if set(answer_by_name) != {name for name, _ in named_reference}:
            return reference, answer
        ordered = [answer_by_name[name] for name, _ in named_reference]
        return _tuple([value for _, value in named_reference]), _tuple(ordered)
    return _either_way(_named_against_unnamed, reference, answer)


def _named_against_unnamed(named_text: str, other: str) -> tuple[str, str] | None:
    named, unnamed = _named_values(named_text), _unnamed_values(other)
    if named is None or unnamed is None or len(unnamed) != len(named):
        return None
    return _tuple([value for _, value in named]), _tuple(unnamed)


_PLUS_MINUS = re.compile(r"\\pm\b|±")
_SOLVED_FOR = re.compile(r"^\s*[a-zA-Z]\s*=\s*")


def _both_signs(text: str) -> str | None:
    """ "\\frac{3 \\pm \\sqrt{5}}{2}" -> "\\frac{3 + \\sqrt{5}}{2}, \\frac{3 - \\sqrt{5}}{2}"."""
    text = _SOLVED_FOR.sub("", strip_outer_delimiters(text), count=1)
    if len(_PLUS_MINUS.findall(text)) != 1 or "\\mp" in text or "," in text or "=" in text:
        return None
    return f"{_PLUS_MINUS.sub(' + ', text)}, {_PLUS_MINUS.sub(' - ', text)}"


def _signs_against_list(signed: str, listed: str) -> tuple[str, str] | None:
    """A "\\pm" against a list of two solutions stands for both."""
    if _PLUS_MINUS.search(listed) is not None or split_top_level(listed, ",") in (None, [listed]):
        return None
    expanded = _both_signs(signed)
    return None if expanded is None else (expanded, listed)


# "1011_2", "A3_{16}": digits in a base given as a subscript.
_IN_BASE = re.compile(r"^\s*([0-9A-Za-z]+)\s*_\s*\{?\s*(\d{1,2})\s*\}?\s*$")


def _in_base(text: str) -> tuple[str, int] | None:
    """ "1011_2" -> ("1011", 11): the digits and their value."""
    match = _IN_BASE.match(strip_outer_delimiters(text))
    # "a_{16}" is a term of a sequence, not the digit a in base 16.
    if match is None or not 2 <= int(match.group(2)) <= 36 or len(match.group(1)) < 2:
        return None
    try:
        return match.group(1), int(match.group(1), int(match.group(2)))
    except ValueError:
        return None


def _align_bases(reference: str, answer: str) -> tuple[str, str]:
    """A number written in a base equals its value ("1011_2" is 11), and its digits when
    the other side leaves the base out ("1011")."""
    return _base_as(reference, answer), _base_as(answer, reference)


def _base_as(text: str, other: str) -> str:
    """``text`` as its digits or its value when it is a number in a base, else as it is."""
    based = _in_base(text)
    if based is None:
        return text
    digits, value = based
    plain = strip_outer_delimiters(other).strip().upper()
    return digits if plain == digits.upper() else str(value)


# "\\frac{dy}{dx} = ", "y' = ": the name of a derivative carries no value.
_DERIVATIVE_LABEL = re.compile(
    r"^\s*\$?\s*(?:\\frac\s*\{\s*d\s*[a-zA-Z]?\s*\}\s*\{\s*d\s*[a-zA-Z]\s*\}|[a-zA-Z]'+(?:\s*\(\s*[a-zA-Z]\s*\))?)\s*=(?!=)"
)


def align(reference: str, answer: str) -> tuple[str, str]:
    """``reference`` and ``answer`` rewritten so that normalisation can compare them."""
    reference, answer = (
        _DERIVATIVE_LABEL.sub("", math_from_phrase(latex_from_plain_text(text)))
        for text in (reference, answer)
    )
    reference, answer = _align_choices(reference, answer)
    reference, answer = _align_bases(reference, answer)
    reference, answer = _align_assignments(reference, answer)
    reference, answer = _either_way(_groups_against_tuples, reference, answer)
    reference, answer = _either_way(_signs_against_list, reference, answer)
    return _align_angles(reference, answer)


__all__ = ["align"]
