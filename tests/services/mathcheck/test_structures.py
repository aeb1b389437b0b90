"""Sets, tuples, intervals and matrices of plain numbers read and compared exactly, and the
terms of a sum, in-process."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.mathcheck.comparison import equal
from services.mathcheck.latex_tokens import Token, answer_tokens, tokenize
from services.mathcheck.normalization import canonical_tokens
from services.mathcheck.reading import read_normalized
from services.mathcheck.structures import (
    Matrix,
    NumberSet,
    Sequence,
    parse_structure,
    same_terms,
    split_top_level,
    union_parts,
    unions_equal,
)


def _canonical(text: str) -> list[Token]:
    """The tokens of ``text``'s canonical form, what the structures' readers read."""
    return canonical_tokens(answer_tokens(text))


def _equal(reference: str, answer: str) -> bool | None:
    """The structures read, compared by the rules of ``comparison.py``."""
    verdict = equal(read_normalized(_canonical(reference)), read_normalized(_canonical(answer)))
    return None if verdict is None else verdict.equal


def test_split_top_level_keeps_nested_separators() -> None:
    assert split_top_level("(1, 2), 3", ",") == ["(1, 2)", " 3"]
    assert split_top_level("(1, 2", ",") is None  # unbalanced


def test_parsed_shapes() -> None:
    assert parse_structure(_canonical("\\{1, 2, 3\\}")) == NumberSet(
        frozenset({Fraction(1), Fraction(2), Fraction(3)})
    )
    interval = parse_structure(_canonical("(0, 1]"))
    assert isinstance(interval, Sequence) and (interval.opening, interval.closing) == ("(", "]")
    matrix = parse_structure(_canonical("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"))
    assert isinstance(matrix, Matrix) and len(matrix.rows) == 2
    assert parse_structure(_canonical("(\\sqrt{2}, 1)")) is None


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("\\{1, 2, 3\\}", "\\{3, 2, 1\\}", True),  # a set is order-free
        ("\\{1, 2\\}", "\\{1, 2, 3\\}", False),
        ("(1, 2)", "(2, 1)", False),  # a tuple is not
        ("(0, 1]", "[0, 1]", False),  # brackets tell an interval's ends
        ("(-\\infty, 2]", "[-\\infty, 2]", True),  # an infinite end is always open
        ("(\\frac{3}{5}, \\frac{8}{3}]", "(0.6, 2.6667]", True),  # rounded to 4 places
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "(1, 2)", True),  # a vector as a tuple
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "[1, 2]", True),  # and as a list
        (
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 5 \\end{pmatrix}",
            False,
        ),
        ("x \\ge 5", "[5, \\infty)", True),  # a relation is the interval it describes
        ("3 > x > -2", "(-2, 3)", True),  # written from the larger end
        ("3 > x > -2", "-2 < x < 3", True),
        ("3 \\ge x > -2", "(-2, 3)", False),
        ("3 > x > -2", "(-3, 2)", False),
        ("x > 2", "y > 2", None),  # different unknowns: for the symbolic engine
        ("(\\sqrt{2}, 1)", "(1, 1)", None),  # not plain numbers
    ],
)
def test_structures_compared(reference: str, answer: str, expected: bool | None) -> None:
    assert _equal(reference, answer) is expected
    assert _equal(answer, reference) is expected


@pytest.mark.parametrize(
    ("text", "count"),
    [("(-\\infty,2)\\cup(3,\\infty)", 2), ("[0,1]\\cup[2,3]\\cup(4,5)", 3)],
)
def test_a_union_reads_as_its_intervals(text: str, count: int) -> None:
    parts = union_parts(tokenize(text))
    assert parts is not None and len(parts) == count


@pytest.mark.parametrize("text", ["(0,1)", "[0,1]\\cup\\{5\\}", "(1,2,3)\\cup(4,5)", "x>1\\cupx<0"])
def test_other_texts_are_no_union(text: str) -> None:
    assert union_parts(tokenize(text)) is None


def test_unions_whose_parts_meet_are_left_undecided() -> None:
    left, right = union_parts(tokenize("[0,1]\\cup[1,2]")), union_parts(tokenize("[0,2]\\cup(5,6)"))
    assert left is not None and right is not None
    assert unions_equal(left, right) is None
    assert unions_equal(right, right) is True


@pytest.mark.parametrize(
    ("reference", "answer", "same"),
    [
        ("x^{2}-10x+24", "24-10x+x^{2}", True),
        ("2-3i", "-3i+2", True),
        ("-\\cosx+C", "C-\\cosx", True),
        ("x^2-y", "y-x^2", False),  # the signs go with the terms
        ("x^2", "x^2", False),  # one term is no sum
        ("1e-3+x", "x+1e-3", False),  # a sign inside scientific notation is not split
        ("x=1+2", "x=2+1", False),  # nor next to a relation
        ("2^-1+x", "x+2^-1", False),  # nor in an exponent
    ],
)
def test_same_terms_in_another_order(reference: str, answer: str, same: bool) -> None:
    assert same_terms(reference, answer) is same
