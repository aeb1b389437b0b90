"""Answers as typed values: what ``reading.read`` makes of a text, and what
``comparison.equal`` compares by the pair of types.

Every value keeps ``canonical``, its normalised string: two values whose canonical forms
are the same are the same answer, and the pair of canonical forms keys the verdict cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from services.mathcheck.structures import Matrix as NumberMatrix
from services.mathcheck.structures import NumberSet, Sequence
from services.mathcheck.written_numbers import ParsedNumber


@dataclass(frozen=True)
class Number:
    """A plain number: its exact value, the decimals it was written with, a percent sign."""

    parsed: ParsedNumber
    canonical: str


@dataclass(frozen=True)
class Quantity:
    """A number with a unit of a known kind: ``1.5 hours`` is (3/2, "time", 3600)."""

    value: Fraction
    # The kind of the unit ("length", or "length^2" for an area) and the factor that turns
    # it into the kind's base unit (an hour is 3600 seconds).
    kind: str
    factor: Fraction
    number: Number
    canonical: str


@dataclass(frozen=True)
class _Written:
    """An answer that is its canonical form: the type says how it reads."""

    canonical: str


class Choice(_Written):
    """One option letter of a multiple-choice question."""


@dataclass(frozen=True)
class Options:
    """Several option letters chosen: ``A and C``, ``(A), (C)``, ``AC``."""

    letters: frozenset[str]
    # Whether the letters were written apart ("A, C"); "AC" alone may name a segment.
    separated: bool
    # The text read as anything else: what is compared with anything but options.
    written: Answer
    canonical: str


@dataclass(frozen=True)
class Ratio:
    """A ratio of plain numbers in lowest terms: ``2:4:6`` is (1, 2, 3)."""

    terms: tuple[int, ...]
    canonical: str


@dataclass(frozen=True)
class Roman:
    """A Roman numeral of two letters or more: ``XIV`` is 14, and also the letters written
    (``CD`` may name a segment)."""

    value: int
    written: Answer
    canonical: str


@dataclass(frozen=True)
class Labelled:
    """An option letter given with its value: ``(C) 12`` is the letter C and the value 12."""

    letter: str
    value: Answer
    canonical: str


@dataclass(frozen=True)
class Based:
    """A number written in a base: ``1011_2`` is the digits 1011 and the value 11."""

    digits: str
    value: int
    canonical: str


@dataclass(frozen=True)
class Angle:
    """An angle in degrees: ``30^\\circ`` is \\frac{\\pi}{6} in radians, and 30 as written
    (alone, a degree sign is decoration). A list of angles converts entry by entry."""

    radians: Answer
    written: Answer
    canonical: str


@dataclass(frozen=True)
class PlusMinus:
    """An expression with one ``\\pm``: ``\\frac{3 \\pm \\sqrt{5}}{2}`` stands for its two
    values (``both``) against a list of two solutions, and is read as written otherwise."""

    both: Answer
    written: Answer
    canonical: str


@dataclass(frozen=True)
class Named:
    """Values named, each unknown once: ``a = 2, b = 3``, ``(a, b) = (2, 3)``. The names in
    the order written and the value of each, read, and the text read as written."""

    values: NamedValues
    written: Answer
    canonical: str


@dataclass(frozen=True)
class Groups:
    """Solutions of a system, the same names in each: ``x = 1, y = 2 or x = 3, y = 4``."""

    groups: tuple[NamedValues, ...]
    written: Answer
    canonical: str


class Word(_Written):
    """An answer in words that names no number: ``yes``, ``east``, ``odd``."""


@dataclass(frozen=True)
class Assignment:
    """One unknown and its value: ``x = 3``."""

    name: str
    value: Answer
    canonical: str


@dataclass(frozen=True)
class Function:
    """A function given by its formula in one argument: ``g(t) = 3t + 1``, ``f^{-1}(x) =
    \\frac{x+4}{3}``; what follows the formula ("for some constant c") is dropped. The
    argument is a bound name: ``g(s) = 3s + 1`` is the same function."""

    name: str
    argument: str
    body: Answer
    # The body as written (the numeric probe reads it, renaming the argument).
    body_text: str
    canonical: str
    # Names the qualifier after the formula declares free ("for some constant c"): bound
    # names too, like the argument.
    constants: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Family:
    """The values of one formula as a parameter runs over a set of numbers: ``x = k\\pi, k
    \\in \\mathbb{Z}``, ``2^k \\ (k = 0, 1, 2, \\ldots)``, ``\\{(t, 2t) : t \\in
    \\mathbb{R}\\}``. The parameter is a bound name; ``domain`` is ``Z``, ``Z>=0``,
    ``Z>0`` or ``R``."""

    name: str | None
    parameter: str
    domain: str
    # The formula as written, each entry of a tuple apart (the probe reads them).
    entries: tuple[str, ...]
    canonical: str


@dataclass(frozen=True)
class Residues:
    """The integers congruent to some residues modulo a modulus: ``n \\equiv \\pm 1
    \\pmod{6}`` (1 and 5 modulo 6), ``n \\equiv 1, 5 \\pmod 6``; each residue taken in
    0 to the modulus less one."""

    name: str | None
    modulus: int
    residues: frozenset[int]
    canonical: str


@dataclass(frozen=True)
class Seq:
    """A tuple, point or interval of answers, not all plain numbers (``structures.py``
    compares those): ``(\\sqrt{2}, \\pi]``. Its brackets count."""

    opening: str
    closing: str
    items: tuple[Answer, ...]
    canonical: str


@dataclass(frozen=True)
class Set:
    """A set of answers, not all plain numbers, in braces or bare as a list of solutions:
    ``\\{1 \\pm \\sqrt{5}, -2\\}``, ``\\frac{1+\\sqrt5}{2}, \\frac{1-\\sqrt5}{2}``."""

    items: tuple[Answer, ...]
    canonical: str
    # Written in braces; else a bare list, which stands for a tuple against named values.
    braced: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Numbers:
    """A set of exact plain numbers (or tuples of them), in braces or bare as a list of
    solutions: ``\\{1, 2, 3\\}``, ``-1, 1, 3``, ``(9, 3), (6, 3)``. Order-free; an entry
    written twice counts once."""

    values: NumberSet
    canonical: str
    # Written in braces; else a bare list, which stands for a tuple against named values.
    braced: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Interval:
    """Plain numbers (or infinities) in brackets: an interval ``(0, 1]``, ``[2, \\infty)``;
    a point or tuple ``(1, 2)``, ``(1, 2, 3)``, ``[1, 2, 3]`` reads the same way (brackets
    and entries), and compares the same way."""

    ends: Sequence
    canonical: str


@dataclass(frozen=True)
class Union:
    """Intervals of plain numbers joined by ``\\cup``: ``(-\\infty, 2) \\cup (3, \\infty)``; or
    inequalities in one unknown joined by "or", the intervals they say: ``x < 2 or x > 3``."""

    parts: tuple[Sequence, ...]
    canonical: str


@dataclass(frozen=True)
class Matrix:
    """A matrix: ``\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}``, ``[[1, 2], [3, 4]]``,
    ``\\begin{bmatrix} x + 1 \\\\ \\sqrt{2} \\end{bmatrix}``; a column or row vector is
    also the tuple of its entries."""

    # Each entry read as an answer, row by row.
    rows: tuple[tuple[Answer, ...], ...]
    # The entries as plain numbers when every one is (``structures.py`` compares those
    # exactly), else None.
    cells: NumberMatrix | None
    canonical: str

    @property
    def entries(self) -> tuple[Answer, ...] | None:
        """A column or row vector's entries in order; None for a matrix that is no vector."""
        flat = tuple(entry for row in self.rows for entry in row)
        if len(flat) > 1 and (len(self.rows) == 1 or len(flat) == len(self.rows)):
            return flat
        return None


@dataclass(frozen=True)
class Relation:
    """An inequality in one unknown, bounded by plain numbers: ``x \\ge 5``, ``-1 < x \\le 2``,
    ``x \\in (0, 1)``: the unknown and the interval it says."""

    variable: str
    interval: Interval
    canonical: str


class Expr(_Written):
    """Anything the readers above do not take: compared by the numeric probe, the
    remaining fast checks and the symbolic engine."""


Answer = (
    Number
    | Quantity
    | Choice
    | Options
    | Labelled
    | Ratio
    | Roman
    | Based
    | Angle
    | PlusMinus
    | Named
    | Groups
    | Word
    | Assignment
    | Function
    | Family
    | Residues
    | Seq
    | Set
    | Numbers
    | Interval
    | Union
    | Relation
    | Matrix
    | Expr
)

# Named values: each name, and its value read.
NamedValues = tuple[tuple[str, Answer], ...]

__all__ = [
    "Angle",
    "Answer",
    "Assignment",
    "Based",
    "Choice",
    "Expr",
    "Family",
    "Function",
    "Groups",
    "Interval",
    "Labelled",
    "Matrix",
    "Named",
    "NamedValues",
    "Number",
    "Numbers",
    "Options",
    "PlusMinus",
    "Quantity",
    "Ratio",
    "Relation",
    "Residues",
    "Roman",
    "Seq",
    "Set",
    "Union",
    "Word",
]
