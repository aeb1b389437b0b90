"""Compare two typed answers by the pair of their types.

``decide(reference, answer)`` first converts the pair (``convert``, table
``_CONVERSIONS``): a notation that stands for another answer next to the other side is
replaced by that answer, until none is left. Then it looks the pair of types up in
``_RULES``. A conversion or a rule is written once for one order of its two types and
serves both orders: the lookup swaps the arguments when the pair comes the other way
round, so both tables are symmetric by construction.

A rule returns a ``Verdict``, or what is left for the symbolic engine: a ``Leaf`` (a pair
it cannot decide), or a formula over the parts of a collection, ``AllOf`` (the entries
of a tuple, each element of a set found in the other) and ``AnyOf`` (one element against
each of the other set's), whose decided parts are folded in. A rule that cannot decide
returns None, and so does a pair the table does not name: that pair is one leaf, both
sides as read (the checker sends a side that is the whole answer as written). A pair
whose formula would need more than ``MAX_LEAVES`` leaves is one leaf, whole. The checker
sends the leaves to the symbolic engine (``checker.py``); ``equal`` is the verdict alone.

| conversion: pair | stands for |
|---|---|
| option with its value, option letter | its letter (``(C) 12`` against ``C`` is ``C``) |
| option with its value, option with its value | the letters when they differ, else the values |
| option with its value, anything else | its value (``(C) 12`` against ``12`` is ``12``) |
| number in a base, the same digits without the base | those digits (``1011_2`` against ``1011``) |
| number in a base, anything else | its value (``1011_2`` is ``11``) |
| named values, named values of the same names | both as tuples in the names' order |
| named values, a tuple or list of as many | both as tuples in the names' order |
| solutions of a system, solutions of a system | both lists of tuples in the names' order |
| solutions of a system, a list of tuples | the groups as tuples in the names' order |
| ``\\pm``, a list of answers | its two values (``\\pm 3`` against ``3, -3`` is ``3, -3``) |
| ``\\pm``, another ``\\pm`` | the two values of each (``\\frac{4 \\pm 2}{2}`` is ``2 \\pm 1``) |
| angle in degrees, an answer with a ``\\pi`` | the angle in radians: ``\\frac{\\pi}{6}`` |
| any of these, anything else | as written (alone, a degree sign is decoration) |
| inequality in one unknown, union or interval of two ends | the interval it says |
| vector (a matrix of one row or column), tuple or list | its entries as the other's kind |
| vector not all plain numbers, tuple of as many | its entries in the other's brackets |
| vector, bare list of exact numbers | both as lists, in the order written |
| exact number, set or list of numbers | the set of that one number (``7`` against ``7, 7``) |

Each row is tried in that order: ``(C) 30^\\circ`` against ``\\frac{\\pi}{6}`` is its value,
then in radians.

| rule: pair | equal when |
|---|---|
| any two with the same canonical form | always (a quantity's canonical form names its unit) |
| number, number | the same value, or one is the other rounded (``written_numbers.numbers_match``) |
| quantity, quantity of one kind in two units | the same amount in one unit, or it rounded |
| quantity, anything else | its number equals the other (alone, a unit is decoration) |
| assignment, assignment | the same unknown and equal values (``x = 2`` is not ``y = 2``) |
| assignment, anything else | its value equals the other (``x = 2`` is ``2``), else whole |
| option letter, option letter | the same letter |
| option letter, number or expression | never, unless it is written with that letter (not ``e``) |
| options chosen, options chosen | the same letters, when one side writes them apart |
| options chosen, anything else | the text read as anything else |
| ratio, ratio of as many terms | the same in lowest terms (``2:4:6`` is ``1:2:3``) |
| Roman numeral, whole number | the same value (``XIV`` is ``14``) |
| Roman numeral, anything else | its letters as words (``CD`` may name a segment) |
| words, words | never when their letters differ; else undecided (``ab`` may be ``ba``) |
| decimal, expression without unknowns | it is the value, or the value rounded (``rounds_to``) |
| expression, expression or number | the same values at random points, or a sum reordered |
| tuple or interval, one of as many entries with the same brackets | entry by entry (all of) |
| set, set | every entry of each equals an entry of the other (all of any of) |
| interval or tuple, interval or tuple (plain numbers) | entry by entry; infinite ends open |
| matrix, matrix (plain numbers) | the same shape and entries |
| matrix, matrix (an entry other than a plain number) | the same shape, entry by entry (all of) |
| set or list, set or list of exact numbers | the same numbers, in any order |
| set in braces of single values, tuple, point or interval | never (``\\{1, 2\\}``, ``(1, 2)``) |
| union of intervals, union or interval of two ends | part by part in order (parts apart) |
| inequality, inequality in one unknown | the same unknown and the same interval; else undecided |
| function, function | one formula with either argument in place of the other (``g(t) = 3t+1``
is ``g(s) = 3s+1``); different when one uses the other's argument as a name of its own |
| function, anything else | its formula equals the other; an expression in one unknown the
formula does not name has it in place of the argument (``g(s) = 3s+1`` against ``3t+1``) |
| family, family | the same parameter set and name, and the formulas agree with one
parameter in place of the other (``x = k\\pi, k \\in \\mathbb{Z}`` is ``\\{n\\pi : n \\in
\\mathbb{Z}\\}``) |
| residues, residues | the same name, and the same residues at the moduli's least common
multiple (``n \\equiv \\pm 1 \\pmod 6`` is ``n \\equiv 1, 5 \\pmod 6``) |
| family, residues | a family over the integers linear in its parameter is the classes it runs
over (``6k \\pm 1``, k in Z) |
| family or residues, anything else | never: a set of values is no one value |
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, get_args

import sympy

from services.mathcheck.answer_types import (
    Angle,
    Answer,
    Assignment,
    Based,
    Choice,
    Expr,
    Family,
    Function,
    Groups,
    Interval,
    Labelled,
    Matrix,
    Named,
    NamedValues,
    Number,
    Numbers,
    Options,
    PlusMinus,
    Quantity,
    Ratio,
    Relation,
    Residues,
    Roman,
    Seq,
    Set,
    Union,
    Word,
)
from services.mathcheck.latex_tokens import tokenize
from services.mathcheck.numeric_probe import probe, read_expression, rounds_to, unknowns
from services.mathcheck.reading import (
    has_plus_minus,
    mentions_pi,
)
from services.mathcheck.structures import (
    NumberSet,
    Sequence,
    exact_entry,
    matrices_equal,
    same_terms,
    sequences_equal,
    split_top_level,
    unions_equal,
    vector_against,
    vector_against_list,
)
from services.mathcheck.vocabulary import CONSTANT_LETTERS
from services.mathcheck.written_numbers import ParsedNumber, numbers_match, parse_number


class Method(StrEnum):
    STRING = "string"
    NUMERIC = "numeric"
    STRUCTURAL = "structural"
    SYMBOLIC = "symbolic"


@dataclass(frozen=True)
class Verdict:
    equal: bool
    method: Method


@dataclass(frozen=True)
class Leaf:
    """A pair the table cannot decide, for the symbolic engine: two expressions or numbers
    the probe is unsure of, or a pair of types without a rule, each side as written."""

    reference: Answer
    answer: Answer

    @property
    def key(self) -> tuple[str, str]:
        return self.reference.canonical, self.answer.canonical


@dataclass(frozen=True)
class AllOf:
    """Equal when every part is: the entries of a tuple, the elements of a set."""

    parts: tuple[Decision, ...]


@dataclass(frozen=True)
class AnyOf:
    """Equal when one part is: an element of a set against the other set's elements."""

    parts: tuple[Decision, ...]


# What the table makes of a pair: a verdict, or what is left for the symbolic engine.
Decision = Verdict | Leaf | AllOf | AnyOf


def _numbers(reference: Number, answer: Number) -> Verdict:
    return Verdict(numbers_match(reference.parsed, answer.parsed), Method.NUMERIC)


def _quantities(reference: Quantity, answer: Quantity) -> Decision:
    if reference.kind == answer.kind and reference.factor != answer.factor:
        # Each in the other's unit, then as plain numbers: "100 km/h" is "27.78 m/s".
        in_answer_unit = ParsedNumber(reference.value * reference.factor / answer.factor)
        in_reference_unit = ParsedNumber(answer.value * answer.factor / reference.factor)
        same = numbers_match(in_answer_unit, answer.number.parsed) or numbers_match(
            reference.number.parsed, in_reference_unit
        )
        return Verdict(same, Method.NUMERIC)
    return _decide(reference.number, answer.number)


def _quantity_and_other(quantity: Quantity, other: Answer) -> Decision:
    return _decide(quantity.number, other)


def _assignments(reference: Assignment, answer: Assignment) -> Verdict | None:
    if reference.name != answer.name:
        return Verdict(False, Method.STRING)
    return _verdict(_decide(reference.value, answer.value))


def _assignment_and_other(assignment: Assignment, other: Answer) -> Verdict | None:
    return _verdict(_decide(assignment.value, other))


def _verdict(decision: Decision) -> Verdict | None:
    """The verdict of what a notation stands for; undecided, the symbolic engine gets the
    pair as written (``y = 2x + 1`` against ``2x - y + 1 = 0`` is about the equation)."""
    return decision if isinstance(decision, Verdict) else None


def _choices(reference: Choice, answer: Choice) -> Verdict:
    return Verdict(reference.canonical == answer.canonical, Method.STRING)


def _choice_and_value(choice: Choice, other: Expr | Number) -> Verdict | None:
    """An option letter is no number nor expression: ``E`` is not ``e`` (Euler's number,
    which the symbolic engine also reads ``E`` as) nor ``E*2``. A letter read as an option
    may be a variable, so an expression written with that letter (``\\frac{2a}{2}``
    against ``a``) is left undecided."""
    letter = choice.canonical.lower()
    written = "".join(token.text for token in tokenize(other.canonical) if not token.named)
    written = written.lower()
    if isinstance(other, Expr) and letter not in CONSTANT_LETTERS and letter in written:
        return None
    return Verdict(False, Method.STRING)


def _chosen_options(reference: Options, answer: Options) -> Verdict | None:
    # Compared as sets only when one side writes the letters apart: "AB" alone may name a
    # segment.
    if reference.separated or answer.separated:
        return Verdict(reference.letters == answer.letters, Method.STRING)
    return _verdict(_decide(reference.written, answer.written))


def _options_and_other(options: Options, other: Answer) -> Verdict | None:
    return _verdict(_decide(options.written, other))


def _ratios(reference: Ratio, answer: Ratio) -> Verdict | None:
    # Equal ratios have one canonical form, their lowest terms: these two differ. Ratios
    # of different lengths are left to the other checks, as before they were typed.
    if len(reference.terms) != len(answer.terms):
        return None
    return Verdict(False, Method.NUMERIC)


def _roman_and_other(roman: Roman, other: Answer) -> Verdict | None:
    if isinstance(other, Number) and other.parsed.value.denominator == 1:
        return Verdict(other.parsed.value == roman.value, Method.NUMERIC)
    return _verdict(_decide(roman.written, other))


def _words(reference: Word, answer: Word) -> Verdict | None:
    # Read as products of single-letter symbols, two words with different letters differ
    # too, so the symbolic engine would agree; "ab" and "ba" may be one product twice.
    if sorted(reference.canonical.replace(" ", "")) != sorted(answer.canonical.replace(" ", "")):
        return Verdict(False, Method.STRING)
    return None


def _expressions(reference: Expr | Number, answer: Expr) -> Verdict | None:
    # Evaluated without sympy; what the reader is unsure of goes to the symbolic engine,
    # unless it is one sum with its terms in another order. A decimal against a constant
    # is judged by the symbolic engine's rule for numbers: equal, or that value rounded.
    if isinstance(reference, Number) and not reference.parsed.percent:
        places = reference.parsed.decimal_places
        if places is not None:
            rounded = rounds_to(answer.canonical, reference.parsed.value, places)
            if rounded is not None:
                return Verdict(rounded, Method.NUMERIC)
    same = probe(_exact_text(reference), answer.canonical)
    if same is not None:
        return Verdict(same, Method.NUMERIC)
    if same_terms(reference.canonical, answer.canonical):
        return Verdict(True, Method.STRING)
    return None


def _exact_text(value: Expr | Number) -> str:
    """A number as its exact fraction (a decimal the probe does not read: its rounding is
    ``rounds_to``'s, or the symbolic engine's, to judge); an expression as it is."""
    if isinstance(value, Expr):
        return value.canonical
    if value.parsed.decimal_places is not None or value.parsed.percent:
        return value.canonical
    exact = value.parsed.value
    return f"({exact.numerator})/({exact.denominator})"


def _sequences(reference: Seq, answer: Seq) -> Decision | None:
    # Other lengths and brackets are left to the symbolic engine, the pair whole.
    if len(reference.items) != len(answer.items) or (
        (reference.opening, reference.closing) != (answer.opening, answer.closing)
    ):
        return None
    return _all_of(
        [_decide(mine, theirs) for mine, theirs in zip(reference.items, answer.items, strict=True)]
    )


def _sets(reference: Set, answer: Set) -> Decision:
    """Every element of each side equals one of the other's."""
    table = [[_decide(mine, theirs) for theirs in answer.items] for mine in reference.items]
    found = [_any_of(row) for row in table]
    found += [_any_of([row[column] for row in table]) for column in range(len(answer.items))]
    return _all_of(found)


def _set_and_sequence(group: Set | Numbers, sequence: Interval | Seq) -> Verdict | None:
    """A set in braces of single values is no tuple, point or interval: ``\\{1, 2\\}`` is
    not ``(1, 2)`` nor ``[1, 2]``. A bare list may stand for a tuple, and a set of one tuple
    for that tuple: those are left to the other checks."""
    if not group.braced:
        return None
    if isinstance(group, Numbers):
        single = not any(isinstance(value, tuple) for value in group.values.values)
    else:
        single = not any(isinstance(item, _COLLECTIONS) for item in group.items)
    return Verdict(False, Method.STRUCTURAL) if single else None


_COLLECTIONS = (Interval, Seq, Set, Numbers, Matrix, Union)


def _all_of(decisions: list[Decision]) -> Decision:
    """True when every part is; False when one is False; else the parts still undecided."""
    if any(isinstance(part, Verdict) and not part.equal for part in decisions):
        return Verdict(False, Method.STRUCTURAL)
    pending = _distinct(part for part in decisions if not isinstance(part, Verdict))
    if not pending:
        return Verdict(True, Method.STRUCTURAL)
    return pending[0] if len(pending) == 1 else AllOf(pending)


def _any_of(decisions: list[Decision]) -> Decision:
    """True when one part is; False when every part is False; else the parts undecided."""
    if any(isinstance(part, Verdict) and part.equal for part in decisions):
        return Verdict(True, Method.STRUCTURAL)
    pending = _distinct(part for part in decisions if not isinstance(part, Verdict))
    if not pending:
        return Verdict(False, Method.STRUCTURAL)
    return pending[0] if len(pending) == 1 else AnyOf(pending)


def _distinct(parts: Iterable[Decision]) -> tuple[Decision, ...]:
    return tuple(dict.fromkeys(parts))


Pair = tuple[Answer, Answer]


def _labelled_and_other(labelled: Labelled, other: Answer) -> Pair:
    """ "(C) 12" is compared by letter with a letter, else by its value."""
    if isinstance(other, Labelled):
        if labelled.letter != other.letter:
            return Choice(labelled.letter), Choice(other.letter)
        return labelled.value, other.value
    if isinstance(other, Choice):
        return Choice(labelled.letter), other
    return labelled.value, other


def _based_and_other(based: Based, other: Answer) -> Pair:
    """ "1011_2" is its digits against its digits written without the base, else its value."""
    if isinstance(other, Based):
        return _integer(based.value), _integer(other.value)
    if other.canonical.upper() == based.digits.upper():
        return other, other  # the same digits, whatever their case
    return _integer(based.value), other


def _integer(value: int) -> Number:
    parsed = parse_number(str(value))
    assert parsed is not None
    return Number(parsed, str(value))


def _named_and_other(named: Named, other: Answer) -> Pair:
    """Named values against named values name by name, and against a tuple or a list of as
    many values in the names' order: "a = 2, b = 3" is "(a, b) = (2, 3)" and "(2, 3)", but
    not "(3, 2)" nor "b = 2, a = 3"."""
    values = dict(named.values)
    order = _name_order(list(values))
    if isinstance(other, Named):
        theirs = dict(other.values)
        if set(theirs) != set(values):
            return named.written, other.written
        return _tuple_of([values[name] for name in order]), _tuple_of(
            [theirs[name] for name in order]
        )
    listed = _as_tuple(other, len(order))
    if listed is None:
        return named.written, other
    return _tuple_of([values[name] for name in order]), listed


def _name_order(names: list[str]) -> list[str]:
    """The order a tuple of these unknowns is written in: one-letter names alphabetically
    ("b = 2, a = 3" is (a, b) = (3, 2)); else the order written."""
    if all(len(name) == 1 and name.isascii() and name.islower() for name in names):
        return sorted(names)
    return names


def _tuple_of(items: list[Answer]) -> Answer:
    """Answers as the tuple of them, typed as a tuple written is read: of plain numbers,
    its ends (``Interval``); else its items (``Seq``)."""
    shown = "(" + ", ".join(item.canonical for item in items) + ")"
    numbers = [item.parsed for item in items if isinstance(item, Number)]
    if len(numbers) == len(items) and not any(number.percent for number in numbers):
        return Interval(Sequence("(", ")", tuple(numbers)), shown)
    return Seq("(", ")", tuple(items), shown)


def _as_tuple(other: Answer, arity: int) -> Answer | None:
    """The tuple of ``arity`` entries ``other`` writes, in parentheses or as a bare list
    ("2, 3"); None for anything else, and for one that names a value ("1, y = 2")."""
    if "=" in other.canonical:
        return None
    if isinstance(other, Interval) and other.ends.variable is None:
        ends = other.ends
        shape = (ends.opening, ends.closing, len(ends.entries))
        return other if shape == ("(", ")", arity) else None
    if isinstance(other, Seq):
        return (
            other if (other.opening, other.closing, len(other.items)) == ("(", ")", arity) else None
        )
    if isinstance(other, Numbers) and not other.braced and len(other.values.listed) == arity:
        entries = [entry for entry in other.values.listed if isinstance(entry, ParsedNumber)]
        if len(entries) != arity:
            return None
        return Interval(Sequence("(", ")", tuple(entries)), other.canonical)
    if isinstance(other, Set) and not other.braced and len(other.items) == arity:
        return _tuple_of(list(other.items))
    return None


def _groups_and_other(grouped: Groups, other: Answer) -> Pair:
    """Solutions of a system against solutions of a system of the same unknowns, or
    against a list of tuples: each group as a tuple in the names' order, the groups a
    list."""
    order = _name_order([name for name, _ in grouped.groups[0]])
    if isinstance(other, Groups):
        if {name for name, _ in other.groups[0]} != set(order):
            return grouped.written, other.written
        return _list_of(grouped.groups, order), _list_of(other.groups, order)
    if not _lists_tuples(other, len(order)):
        return grouped.written, other
    return _list_of(grouped.groups, order), other


def _list_of(groups: tuple[NamedValues, ...], order: list[str]) -> Answer:
    """Groups of named values as the list of their tuples, typed as such a list written is
    read: of exact numbers, the set of the points (``Numbers``); else a ``Set``."""
    tuples = [_tuple_of([dict(group)[name] for name in order]) for group in groups]
    shown = ", ".join(item.canonical for item in tuples)
    points = [
        tuple(entry.value for entry in item.ends.entries if isinstance(entry, ParsedNumber))
        for item in tuples
        if isinstance(item, Interval) and all(map(exact_entry, item.ends.entries))
    ]
    if len(points) == len(tuples):
        return Numbers(NumberSet(frozenset(points)), shown)
    return Set(tuple(tuples), shown)


def _lists_tuples(other: Answer, arity: int) -> bool:
    """Whether ``other`` is a bare list of tuples of ``arity`` entries: "(1, 2), (3, 4)"."""
    if isinstance(other, Numbers) and not other.braced:
        return len(other.values.listed) > 1 and all(
            isinstance(point, tuple) and len(point) == arity for point in other.values.listed
        )
    if isinstance(other, Set) and not other.braced and len(other.items) > 1:
        return all(_as_tuple(item, arity) is item for item in other.items)
    return False


def _plus_minus_and_other(signed: PlusMinus, other: Answer) -> Pair:
    """A \\pm stands for both its values against a list of solutions or another \\pm
    written otherwise; else as written."""
    if isinstance(other, PlusMinus):
        # Their values, unless the two name different unknowns ("x = 1 \\pm 2" against
        # "y = 1 \\pm 2") or are written other than as a value or its unknown's.
        names = {_unknown(signed.written), _unknown(other.written)}
        if None in names or len(names - {""}) > 1:
            return signed.written, other.written
        return signed.both, other.both
    if _is_list(other):
        return signed.both, other
    return signed.written, other


def _unknown(written: Answer) -> str | None:
    """The unknown a \\pm's value is written for: "" for none (an expression), None for a
    value written otherwise."""
    if isinstance(written, Expr):
        return ""
    if isinstance(written, Assignment) and isinstance(written.value, PlusMinus):
        return written.name
    return None


def _is_list(value: Answer) -> bool:
    """A list of two answers or more without a \\pm: a ``Set``, or numbers apart by commas."""
    if has_plus_minus(value.canonical):
        return False
    if isinstance(value, Set | Numbers):
        return True
    parts = split_top_level(value.canonical, ",") if isinstance(value, Expr) else None
    return parts is not None and len(parts) > 1


def _angle_and_other(angle: Angle, other: Answer) -> Pair:
    """Degrees against an answer in radians (one with a \\pi) are compared in radians; else
    a degree sign is decoration."""
    if not isinstance(other, Angle) and mentions_pi(other.canonical):
        return angle.radians, other
    return angle.written, (other.written if isinstance(other, Angle) else other)


def _relation_and_interval(relation: Relation, other: Interval | Union) -> Pair | None:
    """An inequality in one unknown against an interval or a union of intervals is the
    interval it says: ``x \\ge 5`` is ``[5, \\infty)``; against a tuple of other than two,
    it stays."""
    if isinstance(other, Interval) and len(other.ends.entries) != 2:
        return None
    return relation.interval, other


def _unions(reference: Union, answer: Union | Interval) -> Verdict | None:
    theirs = answer.parts if isinstance(answer, Union) else (answer.ends,)
    if isinstance(answer, Interval) and len(answer.ends.entries) != 2:
        return None
    same = unions_equal(reference.parts, theirs)
    return None if same is None else Verdict(same, Method.STRUCTURAL)


def _point_and_numbers(point: Interval, numbers: Numbers) -> Pair | None:
    """A point in parentheses against a set of one point: "(2, -1)" is "\\{(2, -1)\\}"
    (and "(2, -1), (2, -1)"), not "\\{(2, -1), (3, 4)\\}"; ends that are not exact
    numbers, and brackets of an interval, stay as they are."""
    ends = point.ends
    exact = [
        entry.value
        for entry in ends.entries
        if isinstance(entry, ParsedNumber) and exact_entry(entry) and not entry.percent
    ]
    values = numbers.values.values
    if (ends.opening, ends.closing) != ("(", ")") or len(exact) != len(ends.entries):
        return None
    if len(values) != 1 or not isinstance(next(iter(values)), tuple):
        return None
    return Numbers(NumberSet(frozenset({tuple(exact)})), point.canonical), numbers


def _tuple_and_set(point: Seq, listed: Set) -> Pair | None:
    """A tuple against a set of one tuple is that tuple against it."""
    if len(listed.items) != 1 or not isinstance(listed.items[0], Seq):
        return None
    return point, listed.items[0]


def _number_and_numbers(number: Number, numbers: Numbers) -> Pair | None:
    """An exact number against a set or list of numbers is the set of that one number:
    "7" is "7, 7" and not "2, 7"."""
    if number.parsed.percent or number.parsed.decimal_places is not None:
        return None
    return Numbers(NumberSet(frozenset({number.parsed.value})), number.canonical), numbers


def _number_sets(reference: Numbers, answer: Numbers) -> Verdict:
    return Verdict(reference.values == answer.values, Method.STRUCTURAL)


def _vector_and_interval(matrix: Matrix, other: Interval) -> Pair | None:
    """A vector against a tuple, or a list in square brackets, is its entries as one."""
    if matrix.cells is None:
        return _vector_and_tuple(matrix, other)
    vector = vector_against(matrix.cells, other.ends)
    return None if vector is None else (Interval(vector, matrix.canonical), other)


def _vector_and_tuple(matrix: Matrix, other: Seq | Interval) -> Pair | None:
    """A vector against a tuple of as many entries is the tuple of its entries, in the
    other's brackets (a vector is a point, not an interval: ``[x, 1]`` is a list)."""
    entries = matrix.entries
    ends = other.items if isinstance(other, Seq) else other.ends.entries
    if entries is None or len(entries) != len(ends):
        return None
    if isinstance(other, Interval):
        if other.ends.variable is not None:
            return None
        opening, closing = other.ends.opening, other.ends.closing
    else:
        opening, closing = other.opening, other.closing
    shown = opening + ", ".join(entry.canonical for entry in entries) + closing
    return Seq(opening, closing, entries, shown), other


def _vector_and_list(matrix: Matrix, other: Numbers) -> Pair | None:
    """A vector against a bare list of exact numbers is its entries against the list's, in
    the order written: "0.5, 1" is the column (1/2, 1), not (1, 1/2)."""
    if matrix.cells is None or other.braced:
        return None
    lists = vector_against_list(matrix.cells, other.values.listed)
    if lists is None:
        return None
    return Interval(lists[0], matrix.canonical), Interval(lists[1], other.canonical)


def _matrices(reference: Matrix, answer: Matrix) -> Decision:
    """The same shape and the same entries: exactly where both are plain numbers, else
    entry by entry (all of)."""
    if reference.cells is not None and answer.cells is not None:
        return Verdict(matrices_equal(reference.cells, answer.cells), Method.STRUCTURAL)
    if [len(row) for row in reference.rows] != [len(row) for row in answer.rows]:
        return Verdict(False, Method.STRUCTURAL)
    return _all_of(
        [
            _decide(mine, theirs)
            for my_row, their_row in zip(reference.rows, answer.rows, strict=True)
            for mine, theirs in zip(my_row, their_row, strict=True)
        ]
    )


def _functions(reference: Function, answer: Function) -> Decision | None:
    """Two formulas, each in its own argument: equal when they are one function, whatever
    the argument is called (and whatever the function: ``g`` is no part of the values)."""
    if reference.constants or answer.constants:
        constants = _constants_renamed(reference, answer)
        if constants is not None:
            return constants
    if reference.argument == answer.argument:
        return _decide(reference.body, answer.body)
    return _renamed(reference.body_text, reference.argument, answer.body_text, answer.argument)


# Constants declared free on a side, at most this many, are tried in every order.
_MAX_CONSTANTS = 3


def _constants_renamed(reference: Function, answer: Function) -> Verdict | None:
    """Two formulas where a side declares its constants free ("for some constant c"): the
    argument and those constants are bound names, so one side's names may stand for the
    other's in any one-to-one way (``f(x) = cx`` for some constant c against ``f(t) =
    kt``). Only when that side declares every name of its formula but the argument, and
    both sides have as many such names; None otherwise, or when a renaming cannot be
    probed (the table is symmetric: either side may declare)."""
    mine = unknowns(reference.body_text, letters_multiply=True)
    theirs = unknowns(answer.body_text, letters_multiply=True)
    if mine is None or theirs is None:
        return None
    my_free, their_free = mine - {reference.argument}, theirs - {answer.argument}
    declared = (bool(my_free) and reference.constants >= my_free) or (
        bool(their_free) and answer.constants >= their_free
    )
    if not declared or len(my_free) != len(their_free) or len(my_free) > _MAX_CONSTANTS:
        return None
    undecided = False
    for order in itertools.permutations(sorted(my_free)):
        renamed = dict(zip(sorted(their_free), order, strict=True))
        renamed[answer.argument] = reference.argument
        same = probe(reference.body_text, answer.body_text, renamed=renamed, letters_multiply=True)
        if same:
            return Verdict(True, Method.NUMERIC)
        undecided = undecided or same is None
    return None if undecided else Verdict(False, Method.NUMERIC)


def _renamed(mine: str, argument: str, theirs: str, other_argument: str) -> Verdict | None:
    """``theirs`` in ``other_argument`` against ``mine`` in ``argument``, by their values
    with the one argument standing for the other; different when one side uses the other's
    argument as a name of its own (``g(t) = 3s + 1`` is not ``g(s) = 3s + 1``)."""
    my_names = unknowns(mine, letters_multiply=True)
    their_names = unknowns(theirs, letters_multiply=True)
    if my_names is None or their_names is None:
        return None
    if argument in their_names or other_argument in my_names:
        return Verdict(False, Method.NUMERIC)
    same = probe(mine, theirs, renamed={other_argument: argument}, letters_multiply=True)
    return None if same is None else Verdict(same, Method.NUMERIC)


def _function_and_other(function: Function, other: Answer) -> Decision | None:
    """A formula against a value: its body against it; an expression in one unknown that
    the body does not name, in place of the argument, is the formula with it renamed
    (``g(s) = 3s + 1`` against ``3t + 1``)."""
    if isinstance(other, Expr | Word):
        my_names = unknowns(function.body_text, letters_multiply=True)
        their_names = unknowns(other.canonical, letters_multiply=True)
        if my_names is not None and their_names is not None:
            extra = their_names - my_names
            if function.argument not in their_names and len(extra) == 1:
                renamed = _renamed(function.body_text, function.argument, other.canonical, *extra)
                if renamed is not None:
                    return renamed
    return _decide(function.body, other)


def _families(reference: Family, answer: Family) -> Verdict | None:
    """Two families of values: one set when their parameters run over one set and the
    formulas agree entry by entry with one parameter standing for the other (``x = k\\pi``
    for k in Z = ``\\{n\\pi : n \\in \\mathbb{Z}\\}``; ≠ ``2k\\pi``, ≠ k from 0); a name
    on both sides is the same name. Another parametrisation of one set (``(s/2, s)`` for
    ``(t, 2t)``) is not found, and is different."""
    if reference.domain != answer.domain or len(reference.entries) != len(answer.entries):
        return Verdict(False, Method.STRUCTURAL)
    if reference.name and answer.name and reference.name != answer.name:
        return Verdict(False, Method.STRUCTURAL)
    undecided = False
    for mine, theirs in zip(reference.entries, answer.entries, strict=True):
        if reference.parameter == answer.parameter:
            same = probe(mine, theirs, letters_multiply=True)
            verdict = None if same is None else Verdict(same, Method.NUMERIC)
        else:
            verdict = _renamed(mine, reference.parameter, theirs, answer.parameter)
        if verdict is not None and not verdict.equal:
            return verdict
        undecided = undecided or verdict is None
    return None if undecided else Verdict(True, Method.NUMERIC)


# Two moduli are compared at their least common multiple, up to this one.
_MAX_COMMON_MODULUS = 10_000


def _residue_classes(reference: Residues, answer: Residues) -> Verdict | None:
    """One set of integers: the same name where both give one, and the same residues at
    the moduli's least common multiple (``n \\equiv \\pm 1 \\pmod 6`` = ``n \\equiv 1, 5
    \\pmod 6``; ``n \\equiv 1 \\pmod 2`` = ``n \\equiv 1, 3 \\pmod 4``)."""
    if reference.name and answer.name and reference.name != answer.name:
        return Verdict(False, Method.STRUCTURAL)
    common = reference.modulus * answer.modulus // math.gcd(reference.modulus, answer.modulus)
    if common > _MAX_COMMON_MODULUS:
        return None
    return Verdict(_spread(reference, common) == _spread(answer, common), Method.NUMERIC)


def _spread(residues: Residues, modulus: int) -> frozenset[int]:
    """The residues modulo a multiple of the modulus."""
    step = residues.modulus
    return frozenset(r + step * i for r in residues.residues for i in range(modulus // step))


def _family_and_residues(family: Family, residues: Residues) -> Verdict | None:
    """A family of integers over the integers whose formula is linear in its parameter with
    whole coefficients (``6k \\pm 1``, ``4k + 3``) is the residue classes it runs over."""
    classes = _classes_of(family)
    if classes is None:
        return Verdict(False, Method.STRUCTURAL)
    return _residue_classes(classes, residues)


def _classes_of(family: Family) -> Residues | None:
    if family.domain != "Z" or len(family.entries) != 1:
        return None
    tokens = tokenize(family.entries[0])
    signs = ("+", "-") if any(token.is_command("\\pm") for token in tokens) else ("+",)
    found: set[int] = set()
    moduli: set[int] = set()
    for sign in signs:
        written = "".join(sign if token.is_command("\\pm") else token.text for token in tokens)
        expression = read_expression(written, letters_multiply=True)
        if expression is None or expression.unknowns != {family.parameter}:
            return None
        parameter = next(iter(expression.value.free_symbols))
        coefficients = sympy.Poly(expression.value, parameter).all_coeffs()
        if len(coefficients) != 2 or not all(c.is_Integer for c in coefficients):
            return None
        step, start = (int(c) for c in coefficients)
        if step == 0:
            return None
        moduli.add(abs(step))
        found.add(start % abs(step))
    if len(moduli) != 1:
        return None
    modulus = moduli.pop()
    if modulus == 1:
        return None
    return Residues(family.name, modulus, frozenset(found), "")


def _never_one_value(family: Family | Residues, other: Answer) -> Verdict:
    """A family of values, or residue classes, against one value or a list of them:
    different (a formula without its parameter's set is no family)."""
    return Verdict(False, Method.STRUCTURAL)


def _intervals(reference: Interval, answer: Interval) -> Verdict | None:
    same = sequences_equal(reference.ends, answer.ends)
    return None if same is None else Verdict(same, Method.STRUCTURAL)


def _relations(reference: Relation, answer: Relation) -> Verdict | None:
    # In two unknowns ("x > 2" against "y > 2"), the symbolic engine decides.
    if reference.variable != answer.variable:
        return None
    return _intervals(reference.interval, answer.interval)


Conversion = Callable[[Any, Any], Pair | None]
# A rule returns None when it cannot decide the pair: the pair whole is then one leaf.
Rule = Callable[[Any, Any], Decision | None]
_OTHERS: tuple[type, ...] = get_args(Answer)
# A conversion turns a pair into the pair it stands for, before any rule: one entry per
# unordered pair of types, the first type of the key the conversion's first argument.
# Their order says which notation is taken apart first: "(C) 30^\\circ" against
# "\\frac{\\pi}{6}" is the value "30^\\circ" against it, then both in radians.
_CONVERTERS: tuple[tuple[type, Conversion], ...] = (
    (Labelled, _labelled_and_other),
    (Based, _based_and_other),
    (Named, _named_and_other),
    (Groups, _groups_and_other),
    (PlusMinus, _plus_minus_and_other),
    (Angle, _angle_and_other),
)
_CONVERSIONS: dict[tuple[type, type], Conversion] = {
    **{
        (notation, other): conversion
        for index, (notation, conversion) in enumerate(_CONVERTERS)
        for other in _OTHERS
        if other not in {earlier for earlier, _ in _CONVERTERS[:index]}
    },
    (Relation, Interval): _relation_and_interval,
    (Relation, Union): _relation_and_interval,
    (Matrix, Interval): _vector_and_interval,
    (Matrix, Seq): _vector_and_tuple,
    (Matrix, Numbers): _vector_and_list,
    (Number, Numbers): _number_and_numbers,
    (Interval, Numbers): _point_and_numbers,
    (Seq, Set): _tuple_and_set,
}


def convert(reference: Answer, answer: Answer) -> Pair:
    """The pair as the conversion table leaves it: each notation above taken apart
    against the other side until none is left."""
    while True:
        conversion = _CONVERSIONS.get((type(reference), type(answer)))
        converted = None if conversion is None else conversion(reference, answer)
        if converted is not None:
            reference, answer = converted
            continue
        conversion = _CONVERSIONS.get((type(answer), type(reference)))
        converted = None if conversion is None else conversion(answer, reference)
        if converted is None:
            return reference, answer
        answer, reference = converted


# One entry per unordered pair of types; the first type of the key is the rule's first
# argument. Assignments, then quantities, are unwrapped before the rest: "x = 5 cm" is an
# assignment of a quantity, and "14 cm" against "XIV" compares its number. Options
# against anything but options are the text read otherwise ("CD" is also 400).
_RULES: dict[tuple[type, type], Rule] = {
    (Number, Number): _numbers,
    (Quantity, Quantity): _quantities,
    (Assignment, Assignment): _assignments,
    (Choice, Choice): _choices,
    (Choice, Expr): _choice_and_value,
    (Choice, Number): _choice_and_value,
    (Options, Options): _chosen_options,
    (Ratio, Ratio): _ratios,
    (Word, Word): _words,
    (Expr, Expr): _expressions,
    (Seq, Seq): _sequences,
    (Set, Set): _sets,
    (Interval, Interval): _intervals,
    (Relation, Relation): _relations,
    (Matrix, Matrix): _matrices,
    (Numbers, Numbers): _number_sets,
    (Union, Union): _unions,
    (Union, Interval): _unions,
    **{
        (group, sequence): _set_and_sequence
        for group in (Set, Numbers)
        for sequence in (Interval, Seq)
    },
    (Number, Expr): _expressions,
    (Function, Function): _functions,
    (Family, Family): _families,
    (Residues, Residues): _residue_classes,
    (Family, Residues): _family_and_residues,
    **{(Assignment, other): _assignment_and_other for other in _OTHERS if other is not Assignment},
    **{
        (Quantity, other): _quantity_and_other
        for other in _OTHERS
        if other not in (Quantity, Assignment)
    },
    **{
        (Roman, other): _roman_and_other for other in _OTHERS if other not in (Quantity, Assignment)
    },
    **{
        (Options, other): _options_and_other
        for other in _OTHERS
        if other not in (Options, Quantity, Assignment)
    },
    **{
        (Function, other): _function_and_other
        for other in _OTHERS
        if other not in (Function, Options, Quantity, Assignment, Roman)
    },
    **{
        (values, other): _never_one_value
        for values in (Family, Residues)
        for other in _OTHERS
        if other not in (Family, Residues, Function, Options, Quantity, Assignment, Roman)
    },
}


# A pair whose decision would need more symbolic comparisons than this goes to the
# symbolic engine whole: a set of fifty elements against another must not cost 2,500.
MAX_LEAVES = 16


def decide(reference: Answer, answer: Answer) -> Decision:
    """What the table makes of the pair: a verdict, or the formula over the leaves it
    leaves undecided (each a pair of expressions or numbers, or a pair of types without a
    rule, written whole); a pair that would need more than ``MAX_LEAVES`` leaves is one."""
    decision = _decide(reference, answer)
    if len(leaves(decision)) > MAX_LEAVES:
        return Leaf(*convert(reference, answer))
    return decision


def equal(reference: Answer, answer: Answer) -> Verdict | None:
    """Whether ``answer`` equals ``reference``; None when the types cannot tell."""
    decision = _decide(reference, answer)
    return decision if isinstance(decision, Verdict) else None


def leaves(decision: Decision) -> tuple[Leaf, ...]:
    """The distinct leaves of a decision, in the order they come."""
    if isinstance(decision, Verdict):
        return ()
    if isinstance(decision, Leaf):
        return (decision,)
    return tuple(dict.fromkeys(leaf for part in decision.parts for leaf in leaves(part)))


def _decide(reference: Answer, answer: Answer) -> Decision:
    reference, answer = convert(reference, answer)
    if reference.canonical == answer.canonical:
        return Verdict(True, Method.STRING)
    rule = _RULES.get((type(reference), type(answer)))
    if rule is not None:
        decided = rule(reference, answer)
        return Leaf(reference, answer) if decided is None else decided
    rule = _RULES.get((type(answer), type(reference)))
    decided = None if rule is None else rule(answer, reference)
    return Leaf(reference, answer) if decided is None else _swapped(decided)


def _swapped(decision: Decision) -> Decision:
    """A decision made with the two sides the other way round, its leaves turned back."""
    if isinstance(decision, Verdict):
        return decision
    if isinstance(decision, Leaf):
        return Leaf(decision.answer, decision.reference)
    return type(decision)(tuple(_swapped(part) for part in decision.parts))


__all__ = [
    "MAX_LEAVES",
    "AllOf",
    "AnyOf",
    "Decision",
    "Leaf",
    "Method",
    "Verdict",
    "convert",
    "decide",
    "equal",
    "leaves",
]
