"""Exact comparison of sets, tuples, intervals and matrices whose entries are plain numbers.

These answers are common in math RL data and cost the LaTeX parser tens of milliseconds
each, yet comparing them needs nothing symbolic: parse each entry with ``parse_number``
and compare the shapes. Anything with a non-numeric entry (``\\sqrt{2}``, ``x``) or an
ambiguous shape is left undecided for the symbolic path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from services.mathcheck.normalization import parse_number

Entry = Fraction | float  # float only for ±infinity


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
    rows: tuple[tuple[Fraction, ...], ...]


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


def _number(text: str) -> Fraction | None:
    parsed = parse_number(text)
    # Decimals that merely approximate a value (0.333333 for 1/3) need the tolerant
    # comparison of the symbolic path, so only exact notations are taken here.
    if parsed is None or parsed.percent:
        return None
    if parsed.decimal_places is not None and parsed.decimal_places >= 6:
        return None
    return parsed.value


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
        rows: list[tuple[Fraction, ...]] = []
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
        if entries is None or any(isinstance(e, float) for e in entries):
            return None
        return NumberSet(frozenset(e for e in entries if isinstance(e, Fraction)))
    if len(normalized) >= 2 and normalized[0] in "([" and normalized[-1] in ")]":
        entries = _entries(normalized[1:-1])
        if entries is None or len(entries) < 2:
            return None
        return Sequence(normalized[0], normalized[-1], entries)
    return None


def structures_equal(reference: str, answer: str) -> bool | None:
    """True/False when both sides are numeric structures of the same kind, else None."""
    left, right = parse_structure(reference), parse_structure(answer)
    if left is None or right is None or type(left) is not type(right):
        return None
    if isinstance(left, Sequence) and isinstance(right, Sequence):
        if len(left.entries) != len(right.entries):
            return False
        if any(isinstance(e, float) for e in left.entries + right.entries):
            # An interval: infinite ends are always open, whatever bracket was written.
            return _interval_key(left) == _interval_key(right)
    return left == right


def _interval_key(sequence: Sequence) -> tuple[object, ...]:
    first, last = sequence.entries[0], sequence.entries[-1]
    opening = "(" if first == float("-inf") else sequence.opening
    closing = ")" if last == float("inf") else sequence.closing
    return (opening, closing, sequence.entries)
