"""Rewrite a pair of answers into comparable forms before normalisation.

Plain-text and Unicode mathematics (``sqrt(3)/2``, ``2pi``, ``x²``) is first written as
LaTeX on both sides, mathematics said in words written as notation (``at least 5``), and
a derivative's name (``\\frac{dy}{dx} =``) dropped, and an angle in degrees under a
trigonometric function written in radians (``\\sin 30^\\circ``). Then named values only
mean something next to the other side of the comparison: ``a = 2, b = 3`` against a bare
tuple, and solutions of a system against a list of tuples. Options with their values,
numbers in a base, ``\\pm`` and angles in degrees are typed values (``reading.py``) that
the conversion table of ``comparison.py`` compares with the other side.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from services.mathcheck.normalization import strip_outer_delimiters
from services.mathcheck.phrases import math_from_phrase
from services.mathcheck.plain_text_math import latex_from_plain_text
from services.mathcheck.structures import split_top_level

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


_TRIG = re.compile(r"\\(?:sin|cos|tan|cot|sec|csc)\b")
_ANGLE_IN_DEGREES = re.compile(r"(\d+(?:\.\d+)?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|°)")


def _trig_in_radians(text: str) -> str:
    """ "\\sin 30^\\circ" -> "\\sin (30\\pi/180)": a degree sign under a trig function counts."""
    if _TRIG.search(text) is None:
        return text
    return _ANGLE_IN_DEGREES.sub(r"(\1\\pi/180)", text)


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
    reference, answer = _align_assignments(reference, answer)
    reference, answer = _either_way(_groups_against_tuples, reference, answer)
    return _trig_in_radians(reference), _trig_in_radians(answer)


__all__ = ["align"]
