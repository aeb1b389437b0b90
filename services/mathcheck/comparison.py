"""Compare two typed answers by the pair of their types.

``equal(reference, answer)`` first converts the pair (``convert``, table ``_CONVERSIONS``):
a notation that stands for another answer next to the other side is replaced by that
answer, until none is left. Then it looks the pair of types up in ``_RULES``. A conversion
or a rule is written once for one order of its two types and serves both orders: the
lookup swaps the arguments when the pair comes the other way round, so both tables are
symmetric by construction. A rule that cannot decide returns None, and so does a pair the
table does not name: the remaining fast checks and then the symbolic engine decide those
(``checker.py``), on the converted pair.

| conversion: pair | stands for |
|---|---|
| option with its value, option letter | its letter (``(C) 12`` against ``C`` is ``C``) |
| option with its value, option with its value | the letters when they differ, else the values |
| option with its value, anything else | its value (``(C) 12`` against ``12`` is ``12``) |
| number in a base, the same digits without the base | those digits (``1011_2`` against ``1011``) |
| number in a base, anything else | its value (``1011_2`` is ``11``) |
| named values, named values of the same names | both as tuples in the first one's order |
| named values, a tuple or list of as many | both as tuples in the order written |
| solutions of a system, a list of tuples | the groups as tuples in the first group's order |
| ``\\pm``, a list of answers | its two values (``\\pm 3`` against ``3, -3`` is ``3, -3``) |
| angle in degrees, an answer with a ``\\pi`` | the angle in radians: ``\\frac{\\pi}{6}`` |
| any of these, anything else | as written (alone, a degree sign is decoration) |
| inequality in one unknown, union or interval of two ends | the interval it says |
| vector (a matrix of one row or column), tuple or list | its entries as the other's kind |
| exact number, set or list of numbers | the set of that one number (``7`` against ``7, 7``) |

Each row is tried in that order: ``(C) 30^\\circ`` against ``\\frac{\\pi}{6}`` is its value,
then in radians.

| rule: pair | equal when |
|---|---|
| any two with the same canonical form | always (a quantity's canonical form names its unit) |
| number, number | the same value, or one is the other rounded (``normalization.numbers_match``) |
| quantity, quantity of one kind in two units | the same amount in one unit, or it rounded |
| quantity, anything else | its number equals the other (alone, a unit is decoration) |
| assignment, assignment | the same unknown and equal values (``x = 2`` is not ``y = 2``) |
| assignment, anything else | its value equals the other (``x = 2`` is ``2``) |
| option letter, option letter | the same letter |
| options chosen, options chosen | the same letters, when one side writes them apart |
| options chosen, anything else | the text read as anything else |
| ratio, ratio of as many terms | the same in lowest terms (``2:4:6`` is ``1:2:3``) |
| Roman numeral, whole number | the same value (``XIV`` is ``14``) |
| Roman numeral, anything else | its letters as words (``CD`` may name a segment) |
| words, words | never when their letters differ; else undecided (``ab`` may be ``ba``) |
| expression, expression or number | the same values at random points (``numeric_probe.py``) |
| tuple or interval, one of as many entries with the same brackets | entry by entry |
| set, set | every entry of each equals an entry of the other |
| interval or tuple, interval or tuple (plain numbers) | entry by entry; infinite ends open |
| matrix, matrix (plain numbers) | the same shape and entries |
| set or list, set or list of exact numbers | the same numbers, in any order |
| union of intervals, union or interval of two ends | part by part in order (parts apart) |
| inequality, inequality in one unknown | the same unknown and the same interval; else undecided |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, get_args

from services.mathcheck.answer_types import (
    Angle,
    Answer,
    Assignment,
    Based,
    Choice,
    Expr,
    Groups,
    Interval,
    Labelled,
    Matrix,
    Named,
    Number,
    Numbers,
    Options,
    PlusMinus,
    Quantity,
    Ratio,
    Relation,
    Roman,
    Seq,
    Set,
    Union,
    Word,
)
from services.mathcheck.normalization import ParsedNumber, numbers_match, parse_number
from services.mathcheck.numeric_probe import probe
from services.mathcheck.reading import (
    PI,
    PLUS_MINUS,
    read,
    read_normalized,
    tuple_entries,
    tuple_list,
)
from services.mathcheck.structures import (
    NumberSet,
    matrices_equal,
    sequences_equal,
    split_top_level,
    unions_equal,
    vector_against,
)


class Method(StrEnum):
    STRING = "string"
    NUMERIC = "numeric"
    STRUCTURAL = "structural"
    SYMBOLIC = "symbolic"


@dataclass(frozen=True)
class Verdict:
    equal: bool
    method: Method


def _numbers(reference: Number, answer: Number) -> Verdict:
    return Verdict(numbers_match(reference.parsed, answer.parsed), Method.NUMERIC)


def _quantities(reference: Quantity, answer: Quantity) -> Verdict | None:
    if reference.kind == answer.kind and reference.factor != answer.factor:
        # Each in the other's unit, then as plain numbers: "100 km/h" is "27.78 m/s".
        in_answer_unit = ParsedNumber(reference.value * reference.factor / answer.factor)
        in_reference_unit = ParsedNumber(answer.value * answer.factor / reference.factor)
        same = numbers_match(in_answer_unit, answer.number.parsed) or numbers_match(
            reference.number.parsed, in_reference_unit
        )
        return Verdict(same, Method.NUMERIC)
    return equal(reference.number, answer.number)


def _quantity_and_other(quantity: Quantity, other: Answer) -> Verdict | None:
    return equal(quantity.number, other)


def _assignments(reference: Assignment, answer: Assignment) -> Verdict | None:
    if reference.name != answer.name:
        return Verdict(False, Method.STRING)
    return equal(reference.value, answer.value)


def _assignment_and_other(assignment: Assignment, other: Answer) -> Verdict | None:
    return equal(assignment.value, other)


def _choices(reference: Choice, answer: Choice) -> Verdict:
    return Verdict(reference.canonical == answer.canonical, Method.STRING)


def _chosen_options(reference: Options, answer: Options) -> Verdict | None:
    # Compared as sets only when one side writes the letters apart: "AB" alone may name a
    # segment.
    if reference.separated or answer.separated:
        return Verdict(reference.letters == answer.letters, Method.STRING)
    return equal(reference.written, answer.written)


def _options_and_other(options: Options, other: Answer) -> Verdict | None:
    return equal(options.written, other)


def _ratios(reference: Ratio, answer: Ratio) -> Verdict | None:
    # Equal ratios have one canonical form, their lowest terms: these two differ. Ratios
    # of different lengths are left to the other checks, as before they were typed.
    if len(reference.terms) != len(answer.terms):
        return None
    return Verdict(False, Method.NUMERIC)


def _roman_and_other(roman: Roman, other: Answer) -> Verdict | None:
    if isinstance(other, Number) and other.parsed.value.denominator == 1:
        return Verdict(other.parsed.value == roman.value, Method.NUMERIC)
    return equal(roman.written, other)


def _words(reference: Word, answer: Word) -> Verdict | None:
    # Read as products of single-letter symbols, two words with different letters differ
    # too, so the symbolic engine would agree; "ab" and "ba" may be one product twice.
    if sorted(reference.canonical.replace(" ", "")) != sorted(answer.canonical.replace(" ", "")):
        return Verdict(False, Method.STRING)
    return None


def _expressions(reference: Expr | Number, answer: Expr) -> Verdict | None:
    # Evaluated without sympy; what the reader is unsure of goes to the symbolic engine.
    same = probe(_exact_text(reference), answer.canonical)
    return None if same is None else Verdict(same, Method.NUMERIC)


def _exact_text(value: Expr | Number) -> str:
    """A number as its exact fraction (a decimal's rounding is left to the symbolic engine,
    which the probe does by not reading a decimal point); an expression as it is."""
    if isinstance(value, Expr):
        return value.canonical
    if value.parsed.decimal_places is not None or value.parsed.percent:
        return value.canonical
    exact = value.parsed.value
    return f"({exact.numerator})/({exact.denominator})"


def _sequences(reference: Seq, answer: Seq) -> Verdict | None:
    # Other lengths and brackets are left to the exact checks and sympy as before.
    if len(reference.items) != len(answer.items) or (
        (reference.opening, reference.closing) != (answer.opening, answer.closing)
    ):
        return None
    return _all_of(
        [equal(mine, theirs) for mine, theirs in zip(reference.items, answer.items, strict=True)]
    )


def _sets(reference: Set, answer: Set) -> Verdict | None:
    found = [_any_of([equal(mine, theirs) for theirs in answer.items]) for mine in reference.items]
    found += [_any_of([equal(mine, theirs) for mine in reference.items]) for theirs in answer.items]
    return _all_of(found)


def _all_of(verdicts: list[Verdict | None]) -> Verdict | None:
    """True when every verdict is; False when one is False; else undecided."""
    if any(verdict is not None and not verdict.equal for verdict in verdicts):
        return Verdict(False, Method.STRUCTURAL)
    if all(verdict is not None for verdict in verdicts):
        return Verdict(True, Method.STRUCTURAL)
    return None


def _any_of(verdicts: list[Verdict | None]) -> Verdict | None:
    """True when one verdict is; False when every one is False; else undecided."""
    if any(verdict is not None and verdict.equal for verdict in verdicts):
        return Verdict(True, Method.STRUCTURAL)
    if all(verdict is not None for verdict in verdicts):
        return Verdict(False, Method.STRUCTURAL)
    return None


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
        return read_normalized(based.digits), other
    return _integer(based.value), other


def _integer(value: int) -> Number:
    parsed = parse_number(str(value))
    assert parsed is not None
    return Number(parsed, str(value))


def _named_and_other(named: Named, other: Answer) -> Pair:
    """Named values against named values name by name, and against a tuple or a list of as
    many values in the order written: "a = 2, b = 3" is "(a, b) = (2, 3)" and "(2, 3)", but
    not "(3, 2)" nor "b = 2, a = 3"."""
    ours = [value for _, value in named.values]
    if isinstance(other, Named):
        theirs = dict(other.values)
        if set(theirs) != {name for name, _ in named.values}:
            return named.written, other.written
        return _tuple(ours), _tuple([theirs[name] for name, _ in named.values])
    entries = tuple_entries(other.canonical)
    if entries is None or len(entries) != len(ours):
        return named.written, other
    return _tuple(ours), _tuple(entries)


def _tuple(values: list[str]) -> Answer:
    return read(_tuple_text(values))


def _tuple_text(values: list[str]) -> str:
    return "(" + ", ".join(values) + ")"


def _groups_and_other(grouped: Groups, other: Answer) -> Pair:
    """Solutions of a system against a list of tuples: each group in the first's name order."""
    order = [name for name, _ in grouped.groups[0]]
    if isinstance(other, Groups) or tuple_list(other.canonical, len(order)) is None:
        return grouped.written, (other.written if isinstance(other, Groups) else other)
    tuples = (_tuple_text([dict(group)[name] for name in order]) for group in grouped.groups)
    return read(", ".join(tuples)), other


def _plus_minus_and_other(signed: PlusMinus, other: Answer) -> Pair:
    """A \\pm stands for both its values against a list of solutions; else as written."""
    if isinstance(other, PlusMinus):
        return signed.written, other.written
    if _is_list(other):
        return signed.both, other
    return signed.written, other


def _is_list(value: Answer) -> bool:
    """A list of two answers or more without a \\pm: a ``Set``, or numbers apart by commas."""
    if PLUS_MINUS.search(value.canonical) is not None:
        return False
    if isinstance(value, Set | Numbers):
        return True
    parts = split_top_level(value.canonical, ",") if isinstance(value, Expr) else None
    return parts is not None and len(parts) > 1


def _angle_and_other(angle: Angle, other: Answer) -> Pair:
    """Degrees against an answer in radians (one with a \\pi) are compared in radians; else
    a degree sign is decoration."""
    if not isinstance(other, Angle) and PI.search(other.canonical) is not None:
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
    vector = vector_against(matrix.cells, other.ends)
    return None if vector is None else (Interval(vector, matrix.canonical), other)


def _matrices(reference: Matrix, answer: Matrix) -> Verdict:
    return Verdict(matrices_equal(reference.cells, answer.cells), Method.STRUCTURAL)


def _intervals(reference: Interval, answer: Interval) -> Verdict | None:
    same = sequences_equal(reference.ends, answer.ends)
    return None if same is None else Verdict(same, Method.STRUCTURAL)


def _relations(reference: Relation, answer: Relation) -> Verdict | None:
    # In two unknowns ("x > 2" against "y > 2"), the symbolic engine decides.
    if reference.variable != answer.variable:
        return None
    return _intervals(reference.interval, answer.interval)


Conversion = Callable[[Any, Any], Pair | None]
Rule = Callable[[Any, Any], Verdict | None]
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
    (Number, Numbers): _number_and_numbers,
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
    (Number, Expr): _expressions,
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
}


def equal(reference: Answer, answer: Answer) -> Verdict | None:
    """Whether ``answer`` equals ``reference``; None when the types cannot tell."""
    reference, answer = convert(reference, answer)
    if reference.canonical == answer.canonical:
        return Verdict(True, Method.STRING)
    rule = _RULES.get((type(reference), type(answer)))
    if rule is not None:
        return rule(reference, answer)
    rule = _RULES.get((type(answer), type(reference)))
    return None if rule is None else rule(answer, reference)


__all__ = ["Method", "Verdict", "convert", "equal"]
