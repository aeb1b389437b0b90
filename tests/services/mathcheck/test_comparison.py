"""Each rule of the comparison table, in both orders of its pair of types."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from services.mathcheck import latex_tokens
from services.mathcheck.answer_types import Expr, Interval, Matrix, Number, Relation
from services.mathcheck.comparison import (
    MAX_LEAVES,
    AllOf,
    AnyOf,
    Decision,
    Leaf,
    Method,
    Verdict,
    convert,
    decide,
    equal,
    leaves,
)
from services.mathcheck.reading import read
from services.mathcheck.written_numbers import ParsedNumber


def _verdict(reference: str, answer: str) -> tuple[bool, Method] | None:
    forward, backward = equal(read(reference), read(answer)), equal(read(answer), read(reference))
    assert forward == backward, "the table is symmetric"
    return None if forward is None else (forward.equal, forward.method)


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("1,000", "1000", (True, Method.NUMERIC)),
        ("0.333", "\\frac{1}{3}", (True, Method.NUMERIC)),  # a rounding, three places
        ("0.33", "\\frac{1}{3}", (False, Method.NUMERIC)),  # two places are not enough
        ("50\\%", "0.5", (True, Method.NUMERIC)),
        ("42", "42", (True, Method.STRING)),
        # 12.345 rounded to two places: 12.35 half up, 12.34 half to even; both are roundings.
        ("\\frac{2469}{200}", "12.35", (True, Method.NUMERIC)),
        ("\\frac{2469}{200}", "12.34", (True, Method.NUMERIC)),
        ("\\frac{2469}{200}", "12.36", (False, Method.NUMERIC)),
    ],
)
def test_numbers(reference: str, answer: str, expected: tuple[bool, Method]) -> None:
    assert _verdict(reference, answer) == expected


@pytest.mark.parametrize(
    ("reference", "answer", "equal_"),
    [
        ("3 hours", "180 minutes", True),
        ("1.5 hours", "90 \\text{ minutes}", True),
        ("2 m", "200 cm", True),
        ("5 cm^2", "500 mm^2", True),
        ("\\$12.40", "1240 cents", True),
        ("3 hours", "3 minutes", False),
        ("1 ft", "13 in", False),
        ("500 cm", "5 m", True),
        ("5 cm", "5 m", False),
        # Rates: a unit per another, in two scales.
        ("36 \\text{ km/h}", "10 m/s", True),
        ("36 \\text{ km/h}", "36 m/s", False),
        ("60 mph", "88 ft/s", True),
        ("60 mph", "60 km/h", False),
        ("60 \\text{ mph}", "1 \\text{ mile per minute}", True),
        ("2 L/min", "2000 \\text{ mL/min}", True),
        ("9.8 m/s^2", "980 cm/s^2", True),
        # In the other's unit, a decimal may be the amount rounded, as a plain number may.
        ("100 km/h", "27.78 m/s", True),
        ("100 km/h", "27.8 m/s", False),
        ("1 ft", "30.48 cm", True),
    ],
)
def test_quantities_of_one_kind_compare_in_one_unit(
    reference: str, answer: str, equal_: bool
) -> None:
    assert _verdict(reference, answer) == (equal_, Method.NUMERIC)


@pytest.mark.parametrize(
    ("reference", "answer", "equal_"),
    [
        ("5 s", "5 m", True),  # two kinds: each unit is decoration
        ("5 cm", "5", True),
        ("5 cm", "6", False),
        ("3.1416 m", "3.14159", True),  # the number keeps its written places
        ("36", "36 \\text{ km/h}", True),
        ("36 km/h", "10", False),
        ("60 km/h", "60 km", True),  # a speed and a length: two kinds
    ],
)
def test_a_unit_alone_is_decoration(reference: str, answer: str, equal_: bool) -> None:
    verdict = _verdict(reference, answer)
    assert verdict is not None and verdict[0] is equal_


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("x = 2", "y = 2", (False, Method.STRING)),  # different unknowns
        ("x = 2", "x = 2.0", (True, Method.NUMERIC)),
        ("x = 2", "2", (True, Method.STRING)),
        ("x = 2", "3", (False, Method.NUMERIC)),
        ("x = 30 s", "x = \\frac{1}{2} min", (True, Method.NUMERIC)),
        ("x = \\pi", "\\pi", (True, Method.STRING)),
        # The values, expressions, are compared by the numeric probe.
        ("x = \\pi", "x = 2\\pi", (False, Method.NUMERIC)),
        ("x = \\pi", "x = \\frac{2\\pi}{2}", (True, Method.NUMERIC)),
        ("x = \\pi", "x = 3.14", (False, Method.NUMERIC)),  # 3.14 is too short to round pi
    ],
)
def test_assignments(reference: str, answer: str, expected: tuple[bool, Method] | None) -> None:
    assert _verdict(reference, answer) == expected


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("A", "(B)", (False, Method.STRING)),
        ("2:4:6", "1:2:3", (True, Method.STRING)),
        ("1:2", "2 to 4", (True, Method.STRING)),
        ("1:2", "2:1", (False, Method.NUMERIC)),
        ("1:2:3", "1:2", None),  # as many terms, or left to the other checks
        ("1:2", "0.5", None),
        ("A and C", "C, A", (True, Method.STRING)),
        ("A and C", "AC", (True, Method.STRING)),  # one side writes the letters apart
        ("\\text{(A), (C)}", "A, B", (False, Method.STRING)),
        ("AB", "BA", None),  # maybe one segment, named twice
        ("CD", "400", (True, Method.NUMERIC)),  # letters together may be a numeral
        ("A, A", "A", None),
        ("XIV", "14", (True, Method.NUMERIC)),
        ("XIV", "15", (False, Method.NUMERIC)),
        ("XIV", "14 cm", (True, Method.NUMERIC)),  # the quantity's number
        ("XIV", "14.5", None),  # no whole number: the letters as written
        ("\\text{XL}", "40", (True, Method.NUMERIC)),  # a font around it is presentation
        ("CD", "AB", (False, Method.STRING)),  # two segments' names
        ("XI", "IX", None),
        ("Option C", "C", (True, Method.STRING)),
        ("east", "west", (False, Method.STRING)),
        ("ab", "ba", None),  # maybe one product written twice
        ("A", "7", (False, Method.STRING)),  # an option letter is no number
        # A command and the letter after it stay apart ("x\\cdot x", not "x\\cdotx"): read.
        ("x^2", "x \\cdot x", (True, Method.NUMERIC)),
        ("x^2", "x \\cdot x \\cdot x", (False, Method.NUMERIC)),
    ],
)
def test_letters_words_and_the_rest(
    reference: str, answer: str, expected: tuple[bool, Method] | None
) -> None:
    assert _verdict(reference, answer) == expected


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("\\frac{n(n+1)}{2}", "(n^2+n)/2", (True, Method.NUMERIC)),
        ("2^{10}", "1024", (True, Method.NUMERIC)),
        ("x^2-1", "(x-1)(x+2)", (False, Method.NUMERIC)),
        ("1e-3", "\\frac{1}{10^3}", (True, Method.NUMERIC)),  # the number's exact value
        ("0.001", "\\frac{1}{10^3}", (True, Method.NUMERIC)),  # a decimal, exactly
        ("\\sqrt{x^2}", "x", None),  # equal only for x > 0: for the symbolic engine
        ("\\sin^2 x", "1-\\cos^2 x", None),  # a function without parentheses
        ("\\tan^2(y)+1", "\\sec^2(y)", (True, Method.NUMERIC)),  # a power of a function
        ("\\sin^2(x)", "1-\\cos(x)^2", (True, Method.NUMERIC)),
        ("\\cfrac{1}{3}", "1/3", (True, Method.NUMERIC)),
        ("\\log_{2}8", "3", (True, Method.NUMERIC)),  # a logarithm with its base
        ("(x^3)^{1/3}", "x", None),  # equal for x > 0 only: for the symbolic engine
    ],
)
def test_expressions(reference: str, answer: str, expected: tuple[bool, Method] | None) -> None:
    assert _verdict(reference, answer) == expected
    assert _verdict(answer, reference) == expected


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("(\\sqrt{2}, \\pi]", "(\\sqrt2, \\pi]", (True, Method.STRUCTURAL)),
        ("(\\sqrt{2}, \\pi]", "(\\sqrt3, \\pi]", (False, Method.STRUCTURAL)),
        ("(\\sqrt{2}, \\pi]", "(\\sqrt{2}, \\pi)", None),  # other brackets: as before
        ("(\\sqrt{2}, \\pi)", "(\\sqrt{2}, \\pi, 1)", None),  # other lengths: as before
        (
            "\\frac{1+\\sqrt5}{2}, \\frac{1-\\sqrt5}{2}",
            "\\frac{1-\\sqrt5}{2}, \\frac{1+\\sqrt5}{2}",
            (True, Method.STRUCTURAL),
        ),
        ("\\{\\sqrt2, 1\\}", "\\{1, \\sqrt3\\}", (False, Method.STRUCTURAL)),
        ("\\{\\sqrt2, \\sqrt{x^2}\\}", "\\{\\sqrt2, x\\}", None),  # one entry undecided
        # sets and bare lists of exact numbers: the same numbers, in any order
        ("\\{1, 2, 3\\}", "3, 2, 1", (True, Method.STRUCTURAL)),
        ("\\{1, 2, 3\\}", "\\{1, 2, 2, 3\\}", (True, Method.STRUCTURAL)),
        ("\\{1, 2\\}", "\\{1, 3\\}", (False, Method.STRUCTURAL)),
        ("-1, \\frac{1}{2}", "0.5, -1", (True, Method.STRUCTURAL)),
        ("\\pm 3", "3, -3", (True, Method.STRUCTURAL)),  # its two values
    ],
)
def test_collections(reference: str, answer: str, expected: tuple[bool, Method] | None) -> None:
    assert _verdict(reference, answer) == expected


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        # an option with its value: by letter against a letter, else by its value
        ("(C) 12", "C", (True, Method.STRING)),
        ("(C) 12", "D", (False, Method.STRING)),
        ("(C) 12", "12", (True, Method.STRING)),
        ("(C) 12", "\\frac{24}{2}", (True, Method.NUMERIC)),
        ("(C) 12", "13", (False, Method.NUMERIC)),
        ("(C) 12", "(D) 12", (False, Method.STRING)),
        ("(C) 12", "(C) 13", (False, Method.NUMERIC)),
        ("(C) 5 cm", "50 mm", (True, Method.NUMERIC)),  # the value is read whole
        # a number in a base: its digits against its digits, else its value
        ("1011_2", "11", (True, Method.STRING)),
        ("1011_2", "1011", (True, Method.STRING)),
        ("1011_2", "1011_{2}", (True, Method.STRING)),
        ("1011_2", "1101_2", (False, Method.NUMERIC)),
        ("1011_2", "13", (False, Method.NUMERIC)),
        ("255", "\\text{FF}_{16}", (True, Method.STRING)),
        ("A3_{16}", "163", (True, Method.STRING)),
        # a \\pm against a list of two solutions stands for both values
        ("\\pm\\sqrt{7}", "\\sqrt{7}, -\\sqrt{7}", (True, Method.STRUCTURAL)),
        ("\\pm\\sqrt{3}", "\\sqrt{4}, -\\sqrt{3}", (False, Method.STRUCTURAL)),
        (
            "x = \\frac{1 \\pm \\sqrt{5}}{2}",
            "\\frac{1-\\sqrt5}{2}, \\frac{1+\\sqrt5}{2}",
            (True, Method.STRUCTURAL),
        ),
        ("x = \\pm 2", "y = \\pm 2", (False, Method.STRING)),  # as written: the unknowns
        # two \\pm are their two values, one side naming the unknown or both the same one
        ("x=\\frac{1\\pm\\sqrt5}{2}", "\\frac{1 \\pm \\sqrt{5}}{2}", (True, Method.STRUCTURAL)),
        ("x=\\frac{1\\pm\\sqrt5}{2}", "\\frac{1 \\pm \\sqrt{3}}{2}", (False, Method.STRUCTURAL)),
        ("x = 1 \\pm \\sqrt{2}", "x = \\sqrt 2 \\pm 1", (False, Method.STRUCTURAL)),
        ("x = 1 \\pm \\sqrt{2}", "y = 1 \\pm \\sqrt 2", (False, Method.STRING)),
        # degrees against radians; alone, a degree sign is decoration
        ("30^\\circ", "\\frac{\\pi}{6}", (True, Method.STRING)),
        ("60^\\circ", "\\frac{2\\pi}{6}", (True, Method.NUMERIC)),
        ("30^\\circ", "\\frac{\\pi}{3}", (False, Method.NUMERIC)),
        ("30^\\circ", "30", (True, Method.STRING)),
        ("30^\\circ", "30°", (True, Method.STRING)),
        ("30^\\circ", "60", (False, Method.NUMERIC)),
        ("30^\\circ, 150^\\circ", "\\frac{5\\pi}{6}, \\frac{\\pi}{6}", (True, Method.STRUCTURAL)),
        # named values: name by name, and against a tuple or list in the order written
        ("a = 2, b = 3", "(a, b) = (2, 3)", (True, Method.STRING)),
        ("a = 2, b = 3", "b = 3, a = 2", (True, Method.STRING)),
        ("x = \\sqrt{2}, y = \\pi", "(\\sqrt2, \\pi)", (True, Method.STRUCTURAL)),
        ("x = \\sqrt{2}, y = \\pi", "(\\pi, \\sqrt2)", (False, Method.STRUCTURAL)),
        ("a = 2, b = 3", "b = 2, a = 3", (False, Method.STRUCTURAL)),  # (2, 3) against (3, 2)
        # the groups as a list of tuples, in any order
        ("x = 1, y = 2 or x = 3, y = 4", "(3, 4), (1, 2)", (True, Method.STRUCTURAL)),
        ("x = 1, y = 2 or x = 3, y = 4", "(3, 4), (2, 1)", (False, Method.STRUCTURAL)),
        # an exact number against a set or list of numbers: the set of that one number
        ("7", "7, 7", (True, Method.STRUCTURAL)),
        ("7", "\\{7\\}", (True, Method.STRUCTURAL)),
        ("2", "2, 3", (False, Method.STRUCTURAL)),
        ("x = 2", "2, 3", (False, Method.STRUCTURAL)),
        ("2.5", "2.5, 2.5", None),  # a decimal may be a rounding: as before
        # notations inside one another: the option's value, then the angle
        ("(C) 30^\\circ", "\\frac{\\pi}{6}", (True, Method.STRING)),
    ],
)
def test_conversions(reference: str, answer: str, expected: tuple[bool, Method] | None) -> None:
    assert _verdict(reference, answer) == expected


@pytest.mark.parametrize(
    ("reference", "answer", "converted"),
    [
        ("(C) 12", "C", ("C", "C")),
        ("(C) 12", "12", ("12", "12")),
        ("1011_2", "1011", ("1011", "1011")),
        ("1011_2", "12", ("11", "12")),
        # Plain numbers, compared by structures.py after the types (checker.py).
        ("\\pm 3", "3, -3", ("+3,-3", "3, -3")),
        ("\\pm 3", "3", ("\\pm3", "3")),  # no list: as written
        ("30^\\circ", "\\pi", ("\\frac{\\pi}{6}", "\\pi")),
        ("30^\\circ", "x", ("30", "x")),
        ("a = 2, b = 3", "(2, 3)", ("(2, 3)", "(2, 3)")),
        ("a = 2, b = 3", "(2, 3, 4)", ("a=2,b=3", "(2, 3, 4)")),  # not as many values
        ("x = 1, y = 2 or x = 3, y = 4", "(3, 4), (1, 2)", ("(1, 2), (3, 4)", "(3, 4),(1, 2)")),
        ("x = 1, y = 2 or x = 3, y = 4", "(1, 2, 5)", ("x=1,y=2orx=3,y=4", "(1, 2, 5)")),
        ("x + 1", "2", ("x+1", "2")),  # nothing to convert
    ],
)
def test_the_conversion_table_is_symmetric(
    reference: str, answer: str, converted: tuple[str, str]
) -> None:
    forward = convert(read(reference), read(answer))
    backward = convert(read(answer), read(reference))
    assert (forward[0].canonical, forward[1].canonical) == converted
    assert (backward[1].canonical, backward[0].canonical) == converted


def test_named_values_line_up_in_the_names_order() -> None:
    """One-letter names in alphabetical order, whatever the order written; other names in
    the order written."""

    def converted(reference: str, answer: str) -> tuple[str, str]:
        pair = convert(read(reference), read(answer))
        return pair[0].canonical, pair[1].canonical

    assert converted("a = 2, b = 3", "b = 3, a = 2") == ("(2, 3)", "(2, 3)")
    assert converted("b = 3, a = 2", "a = 2, b = 3") == ("(2, 3)", "(2, 3)")
    assert converted("a = 2, b = 3", "b = 2, a = 3") == ("(2, 3)", "(3, 2)")
    assert converted("y = 5, x = 1", "(1, 5)") == ("(1, 5)", "(1, 5)")
    assert converted("B = 3, A = 2", "(3, 2)") == ("(3, 2)", "(3, 2)")


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("(0, 1]", "(0, 1]", (True, Method.STRING)),
        ("(0, 1]", "(0, 1)", (False, Method.STRUCTURAL)),
        ("(\\frac{3}{5}, \\frac{8}{3}]", "(0.6, 2.6667]", (True, Method.STRUCTURAL)),
        ("[2, \\infty)", "[2, \\infty]", (True, Method.STRUCTURAL)),  # an infinite end is open
        # an inequality in one unknown against an interval: the interval it says
        ("x \\ge 5", "[5, \\infty)", (True, Method.STRUCTURAL)),
        ("x > 5", "[5, \\infty)", (False, Method.STRUCTURAL)),
        ("-1 < x \\le 2", "(-1, 2]", (True, Method.STRUCTURAL)),
        ("x \\ge 5", "5 \\le x", (True, Method.STRUCTURAL)),
        ("x \\ge 5", "x \\in [5, \\infty)", (True, Method.STRUCTURAL)),
        ("x > 2", "y > 2", None),  # two unknowns: the symbolic engine decides
        ("x > 2", "(1, 2, 3)", None),  # a relation against a triple: it stays, undecided
        ("(1, 2, 3)", "(1, 2, 3.0)", (True, Method.STRUCTURAL)),
        ("(1, 2, 3)", "(1, 3, 2)", (False, Method.STRUCTURAL)),
        ("(1, 2, 3)", "(1, 2)", (False, Method.STRUCTURAL)),
        # unions of intervals: part by part in order, when no two parts meet
        (
            "(-\\infty, 2) \\cup (3, \\infty)",
            "(3, \\infty) \\cup (-\\infty, 2)",
            (True, Method.STRUCTURAL),
        ),
        (
            "(-\\infty, 2) \\cup (3, \\infty)",
            "(-\\infty, 2] \\cup [3, \\infty)",
            (False, Method.STRUCTURAL),
        ),
        ("(-\\infty, 2) \\cup (3, \\infty)", "(2, 3)", (False, Method.STRUCTURAL)),
        ("(0, \\frac{1}{3}) \\cup (1, 2)", "(0, 0.333) \\cup (1, 2)", (True, Method.STRUCTURAL)),
        (
            "(-\\infty, 2) \\cup (2, \\infty)",
            "(2, \\infty) \\cup (-\\infty, 2)",
            (True, Method.STRUCTURAL),
        ),
        ("x > 2", "(2, 3) \\cup (3, \\infty)", (False, Method.STRUCTURAL)),
        # parts that meet or overlap are one interval: sympy merges them
        ("[0, 2]", "[0, 1] \\cup [1, 2]", None),
        ("x \\ge 2", "[2, \\infty) \\cup (5, 6)", None),
        ("(1, 2) \\cup (3, 4)", "(1, 2, 3)", None),  # a triple is no interval
    ],
)
def test_intervals_and_relations(
    reference: str, answer: str, expected: tuple[bool, Method] | None
) -> None:
    assert _verdict(reference, answer) == expected


def test_a_relation_converts_only_against_an_interval() -> None:
    relation, interval = read("x \\ge 5"), read("[5, \\infty)")
    assert isinstance(relation, Relation)
    assert convert(relation, interval) == (relation.interval, interval)
    assert convert(interval, relation) == (interval, relation.interval)
    other = read("x \\ge \\sqrt{25}")
    assert convert(relation, other) == (relation, other)


_COLUMN = "\\begin{pmatrix} 1 \\\\ 2 \\\\ 3 \\end{pmatrix}"
_SQUARE = "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        (_SQUARE, "[[1, 2], [3, 4]]", (True, Method.STRUCTURAL)),
        (_SQUARE, "\\begin{bmatrix} 1 & 2 \\\\ 3 & 5 \\end{bmatrix}", (False, Method.STRUCTURAL)),
        (_SQUARE, "\\begin{pmatrix} 1 & 2 & 3 & 4 \\end{pmatrix}", (False, Method.STRUCTURAL)),
        # a vector against a tuple, or a list in square brackets, of its entries
        (_COLUMN, "(1, 2, 3)", (True, Method.STRUCTURAL)),
        (_COLUMN, "[1, 2, 3]", (True, Method.STRUCTURAL)),
        (_COLUMN, "[1, 3, 2]", (False, Method.STRUCTURAL)),
        (_COLUMN, "(1, 2)", (False, Method.STRUCTURAL)),
        ("\\begin{pmatrix} 0 \\\\ 1 \\end{pmatrix}", "[0, 1]", (True, Method.STRUCTURAL)),
        # a sum of unit vectors is the tuple of its components
        (
            "\\langle 3, -1, 2 \\rangle",
            "3\\mathbf{i} - \\mathbf{j} + 2\\mathbf{k}",
            (True, Method.STRING),
        ),
        (
            "\\langle 3, 1, 2 \\rangle",
            "3\\mathbf{i} - \\mathbf{j} + 2\\mathbf{k}",
            (False, Method.STRUCTURAL),
        ),
        (_COLUMN, "\\mathbf{i} + 2\\mathbf{j} + 3\\mathbf{k}", (True, Method.STRUCTURAL)),
        # a square matrix is no vector: undecided by the types
        (_SQUARE, "(1, 2, 3, 4)", None),
    ],
)
def test_matrices_and_vectors(
    reference: str, answer: str, expected: tuple[bool, Method] | None
) -> None:
    assert _verdict(reference, answer) == expected


def test_a_vector_converts_to_the_others_kind() -> None:
    column = read(_COLUMN)
    assert isinstance(column, Matrix)
    for written, brackets in (("[1, 2, 3]", ("[", "]")), ("(1, 2, 3)", ("(", ")"))):
        vector, other = convert(column, read(written))
        assert isinstance(vector, Interval) and isinstance(other, Interval)
        assert (vector.ends.opening, vector.ends.closing) == brackets


# What the table leaves to the symbolic engine: a formula over leaves, never more than
# MAX_LEAVES of them, each a pair of expressions or numbers or a pair without a rule.
_SIN = "\\sin^2 t"  # the numeric probe leaves these to the symbolic engine
_ONE_LESS_COS = "1 - \\cos^2 t"


def _keys(decision: Decision) -> list[tuple[str, str]]:
    return [leaf.key for leaf in leaves(decision)]


def test_a_tuple_sends_its_undecided_entries_not_its_text() -> None:
    decision = decide(read(f"({_SIN}, 3)"), read(f"({_ONE_LESS_COS}, 3)"))
    assert decision == Leaf(Expr("\\sin^2t"), Expr("1-\\cos^2t"))
    # An entry apart decides the tuple without the symbolic engine.
    apart = decide(read(f"({_SIN}, 3)"), read(f"({_ONE_LESS_COS}, 4)"))
    assert apart == Verdict(False, Method.STRUCTURAL)


def test_each_element_of_a_set_is_any_of_the_other_sets() -> None:
    decision = decide(read(f"\\{{{_SIN}, 3\\}}"), read(f"\\{{3, {_ONE_LESS_COS}\\}}"))
    # 3 is found at once; \\sin^2 t is \\sin^2 t against 3 or against 1 - \\cos^2 t; and
    # 1 - \\cos^2 t is against \\sin^2 t or 3.
    assert decision == AllOf(
        (
            AnyOf(
                (
                    Leaf(Expr("\\sin^2t"), Number(ParsedNumber(Fraction(3)), "3")),
                    Leaf(Expr("\\sin^2t"), Expr("1-\\cos^2t")),
                )
            ),
            AnyOf(
                (
                    Leaf(Expr("\\sin^2t"), Expr("1-\\cos^2t")),
                    Leaf(Number(ParsedNumber(Fraction(3)), "3"), Expr("1-\\cos^2t")),
                )
            ),
        )
    )
    assert len(_keys(decision)) == 3  # each distinct pair once


def test_leaves_keep_the_reference_first_in_both_orders() -> None:
    forward = decide(read(f"\\{{{_SIN}, 3\\}}"), read(f"\\{{3, {_ONE_LESS_COS}\\}}"))
    backward = decide(read(f"\\{{3, {_ONE_LESS_COS}\\}}"), read(f"\\{{{_SIN}, 3\\}}"))
    assert {(b, a) for a, b in _keys(backward)} == set(_keys(forward))
    assert decide(read("3"), read(_SIN)) == Leaf(read("3"), read(_SIN))
    assert decide(read(_SIN), read("3")) == Leaf(read(_SIN), read("3"))


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        # A decimal against a constant: equal, or that value rounded to its own places,
        # as the symbolic engine judges numbers (written_numbers.approximates).
        ("\\sqrt3", "1.732", (True, Method.NUMERIC)),
        ("\\pi", "3.1416", (True, Method.NUMERIC)),
        ("\\frac{\\sqrt{3}}{2}", "0.8660254037844386", (True, Method.NUMERIC)),
        ("\\sqrt{17}", "4.123105625617661", (True, Method.NUMERIC)),
        ("\\sqrt2", "1.4142135", (False, Method.NUMERIC)),  # truncated, not rounded
        ("\\sqrt2", "1.4142136", (True, Method.NUMERIC)),
        ("40\\pi", "125.663", (False, Method.NUMERIC)),  # 125.6637 rounds to 125.664
        ("\\sqrt3", "3.1416", (False, Method.NUMERIC)),
        ("\\pi", "3.14", (False, Method.NUMERIC)),  # too few digits to stand for pi
        ("-\\sqrt3", "-1.732", (True, Method.NUMERIC)),
        # On the edge of the rounding (1.0005 to three places is a tie), too large or too
        # small to trust the evaluation, or not real: left to the symbolic engine.
        ("1+\\frac{1}{2000}", "1.000", None),
        ("10^{20}\\pi", "314159265358979323846.3", None),
        ("\\sin(\\pi)", "0.0", None),
        ("\\sqrt{-2}", "1.414", None),
        ("\\sqrt{x}", "1.414", None),  # an unknown
        ("50\\%", "\\frac{\\pi}{6}", None),  # a percent is not read this way
    ],
)
def test_a_decimal_against_a_constant(
    reference: str, answer: str, expected: tuple[bool, Method] | None
) -> None:
    assert _verdict(reference, answer) == expected
    assert _verdict(answer, reference) == expected


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("E", "e", (False, Method.STRING)),  # an option, not Euler's number
        ("e", "E", (False, Method.STRING)),
        ("E", "E*2", (False, Method.STRING)),
        ("E", "2e", (False, Method.STRING)),
        ("B", "\\sqrt{3}", (False, Method.STRING)),
        ("C", "\\cos(x)", (False, Method.STRING)),  # a command's letters are no variable
        ("A", "4", (False, Method.STRING)),
        ("a", "\\frac{2a}{2}", None),  # "a" may be a variable: for the symbolic engine
    ],
)
def test_an_option_letter_is_no_value(
    reference: str, answer: str, expected: tuple[bool, Method] | None
) -> None:
    assert _verdict(reference, answer) == expected
    assert _verdict(answer, reference) == expected


@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        ("A", "(1, 2]"),  # a pair of types without a rule: both as read, each as written
        ("\\{1, 2\\}", _SIN),
        # A notation the table cannot decide through goes as written: the equation counts.
        ("y = 2x + 1", "2x - y + 1 = 0"),
        ("(\\sqrt{2}, 1)", "(1, 1, 1)"),  # tuples of other lengths
    ],
)
def test_a_pair_the_rules_cannot_take_apart_is_one_leaf(reference: str, answer: str) -> None:
    values = convert(read(reference), read(answer))
    assert decide(read(reference), read(answer)) == Leaf(*values)


def test_a_pair_of_too_many_leaves_goes_whole() -> None:
    reference = read("\\{" + ", ".join(f"{_SIN} + {k}" for k in range(40)) + "\\}")
    answer = read("\\{" + ", ".join(f"{k} + {_ONE_LESS_COS}" for k in range(40)) + "\\}")
    assert decide(reference, answer) == Leaf(reference, answer)
    few = read("\\{" + ", ".join(f"{_SIN} + {k}" for k in range(4)) + "\\}")
    assert len(leaves(decide(few, few))) == 0  # the same text: equal at once
    assert 0 < len(leaves(decide(few, read(f"\\{{{_ONE_LESS_COS}, 7\\}}")))) <= MAX_LEAVES


def test_a_sum_in_another_order_is_equal_without_sympy() -> None:
    assert equal(read("-\\cos x + C"), read("C - \\cos x")) == Verdict(True, Method.STRING)


@pytest.mark.parametrize(
    ("reference", "answer", "equal_"),
    [
        ("a = 3, b = 1 \\text{ or } a = 1, b = 3", "a=1, b=3; a=3, b=1", True),
        ("p = 4, q = 9 \\quad \\text{and} \\quad p = 8, q = 3", "p=4,q=9;p=8,q=3", True),
        ("p = 4, q = 9 \\quad \\text{and} \\quad p = 8, q = 3", "p=4,q=9;p=8,q=4", False),
    ],
)
def test_solutions_of_a_system_against_solutions(reference: str, answer: str, equal_: bool) -> None:
    verdict = _verdict(reference, answer)
    assert verdict is not None and verdict[0] is equal_


@pytest.mark.parametrize(
    ("reference", "answer", "equal_"),
    [
        ("\\begin{pmatrix} \\frac12 \\\\ 1 \\end{pmatrix}", "0.5, 1", True),
        ("\\begin{pmatrix} \\frac12 \\\\ 1 \\end{pmatrix}", "1, 0.5", False),  # in order
    ],
)
def test_a_vector_against_a_bare_list(reference: str, answer: str, equal_: bool) -> None:
    assert _verdict(reference, answer) == (equal_, Method.STRUCTURAL)


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("a = 2, b = 3", "(2, 3)", True),
        ("b = 2, a = 3", "3, 2", True),
        ("a = \\sqrt{2}, b = 1", "(\\sqrt{2}, 1)", True),
        ("a = \\sqrt{2}, b = 1", "(\\sqrt{2}, 2)", False),
        ("x = 1, y = 2 or x = 3, y = 4", "(3, 4), (1, 2)", True),
        ("x = 1, y = 2 or x = 3, y = 4", "(4, 3), (1, 2)", False),
        ("1011_2", "1011", True),
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "1, 2", True),
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "2, 1", False),
    ],
)
def test_conversions_build_typed_values_and_read_no_text(
    reference: str, answer: str, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Named values, groups of solutions, a number in a base and a vector become the
    tuples and lists they stand for from their values as read: nothing is scanned again."""
    left, right = read(reference), read(answer)

    def refused(text: str) -> Iterator[latex_tokens.Token]:
        raise AssertionError(f"scanned again: {text!r}")

    monkeypatch.setattr(latex_tokens, "_scan", refused)
    latex_tokens._tokens.cache_clear()
    verdict = equal(left, right)
    assert verdict is not None and verdict.equal is expected
    backward = equal(right, left)
    assert backward is not None and backward.equal is expected
