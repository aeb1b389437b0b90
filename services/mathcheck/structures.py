"""Exact comparison of sets, tuples, intervals and matrices whose entries are plain numbers.

These answers are common in math RL data and cost the LaTeX parser tens of milliseconds
each, yet comparing them needs nothing symbolic: parse each entry with ``parse_number``
and compare the shapes. Anything with a non-numeric entry (``\\sqrt{2}``, ``x``), a set with
rounded decimals, or an ambiguous shape is left undecided for the symbolic path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from services.mathcheck.normalization import ParsedNumber, numbers_match, parse_number

Entry = ParsedNumber | float  # float only for ±infinity


@dataclass(frozen=True)
class NumberSet:
    values: frozenset[Fraction]


@dataclass(frozen=True)
class Sequence:
    """A tuple, point or interval: brackets matter ("(0,1]" is not "[0,1]")."""

    opening: str
    closing: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Matrix:
    rows: tuple[tuple[ParsedNumber, ...], ...]


Structure = NumberSet | Sequence | Matrix

_INFINITY = {"\\infty": float("inf"), "+\\infty": float("inf"), "-\\infty": float("-inf")}
_MATRIX = re.compile(
    r"^[(\[]?\\begin\{(pmatrix|bmatrix|Bmatrix|matrix|smallmatrix|array)\}"
    r"(?:\{[lcr|]*\})?(.*)\\end\{\1\}[)\]]?$",
    re.DOTALL,
)


def _split_top_level(text: str, separator: str) -> list[str] | None:
    parts: list[str] = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
            if depth < 0:
                return None
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    if depth != 0:
        return None
    parts.append(text[start:])
    return parts


def _number(text: str) -> ParsedNumber | None:
    parsed = parse_number(text)
    # Percentages have two readings (50% ~ 50 ~ 0.5): sets of them go to the symbolic path.
    if parsed is None or parsed.percent:
        return None
    return parsed


def _entries(text: str) -> tuple[Entry, ...] | None:
    parts = _split_top_level(text, ",")
    if parts is None:
        return None
    entries: list[Entry] = []
    for part in parts:
        if part in _INFINITY:
            entries.append(_INFINITY[part])
            continue
        value = _number(part)
        if value is None:
            return None
        entries.append(value)
    return tuple(entries)


def parse_structure(normalized: str) -> Structure | None:
    """The set, sequence or matrix a normalised answer denotes, if all entries are numbers."""
    matrix = _MATRIX.match(normalized)
    if matrix is not None:
        rows: list[tuple[ParsedNumber, ...]] = []
        for row in matrix.group(2).strip().removesuffix("\\\\").split("\\\\"):
            cells = [_number(cell) for cell in row.split("&")]
            if any(cell is None for cell in cells):
                return None
            rows.append(tuple(cell for cell in cells if cell is not None))
        if len({len(row) for row in rows}) != 1:
            return None
        return Matrix(tuple(rows))
    if normalized.startswith("\\{") and normalized.endswith("\\}"):
        entries = _entries(normalized[2:-2])
        if entries is None or any(not _exact(e) for e in entries):
            return None
        return NumberSet(frozenset(e.value for e in entries if isinstance(e, ParsedNumber)))
    if len(normalized) >= 2 and normalized[0] in "([" and normalized[-1] in ")]":
        entries = _entries(normalized[1:-1])
        if entries is None or len(entries) < 2:
            return None
        return Sequence(normalized[0], normalized[-1], entries)
    return None


def _exact(entry: Entry) -> bool:
    """An entry that can only equal its own value (no rounded decimal, no infinity)."""
    return isinstance(entry, ParsedNumber) and entry.decimal_places is None


def _entries_match(left: Entry, right: Entry) -> bool:
    if isinstance(left, ParsedNumber) and isinstance(right, ParsedNumber):
        return numbers_match(left, right)
    return left == right


def structures_equal(reference: str, answer: str) -> bool | None:
    """True/False when both sides are numeric structures of the same kind, else None.

    Entries compare as numbers do (a decimal rounded to three or more places matches the
    exact value it rounds: ``(3/5, 8/3]`` ~ ``(0.6, 2.6667]``).
    """
    left, right = _as_tuple(parse_structure(reference)), _as_tuple(parse_structure(answer))
    if left is None or right is None or type(left) is not type(right):
        return None
    if isinstance(left, Sequence) and isinstance(right, Sequence):
        if len(left.entries) != len(right.entries):
            return False
        if _interval_brackets(left) != _interval_brackets(right):
            return False
        return all(map(_entries_match, left.entries, right.entries))
    if isinstance(left, Matrix) and isinstance(right, Matrix):
        if [len(row) for row in left.rows] != [len(row) for row in right.rows]:
            return False
        return all(
            all(map(_entries_match, mine, theirs))
            for mine, theirs in zip(left.rows, right.rows, strict=True)
        )
    return left == right


def _as_tuple(structure: Structure | None) -> Structure | None:
    """A column or row vector is the tuple of its entries: pmatrix (1, 2) ~ "(1, 2)"."""
    if isinstance(structure, Matrix):
        entries = tuple(entry for row in structure.rows for entry in row)
        if len(entries) > 1 and (len(structure.rows) == 1 or len(entries) == len(structure.rows)):
            return Sequence("(", ")", entries)
    return structure


def _interval_brackets(sequence: Sequence) -> tuple[str, str]:
    # An interval's infinite ends are always open, whatever bracket was written.
    first, last = sequence.entries[0], sequence.entries[-1]
    opening = "(" if first == float("-inf") else sequence.opening
    closing = ")" if last == float("inf") else sequence.closing
    return opening, closing
