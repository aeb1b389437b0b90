"""Each reader: the typed value an answer is read as."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.mathcheck.answer_types import (
    Assignment,
    Choice,
    Expr,
    Number,
    Options,
    Quantity,
    Roman,
    Seq,
    Set,
    Word,
)
from services.mathcheck.reading import read, read_normalized


@pytest.mark.parametrize(
    ("text", "value", "places", "percent"),
    [
        ("42", Fraction(42), None, False),
        ("$\\frac{3}{4}$", Fraction(3, 4), None, False),
        ("1,000.5", Fraction(2001, 2), 1, False),
        ("0,111", Fraction(111, 1000), 3, False),
        ("2.5\\%", Fraction(5, 2), 1, True),
        ("seven", Fraction(7), None, False),
        ("3 thousand", Fraction(3000), None, False),
        ("5 apples", Fraction(5), None, False),  # a unit of no known kind is decoration
    ],
)
def test_plain_numbers_read_exactly(
    text: str, value: Fraction, places: int | None, percent: bool
) -> None:
    number = read(text)
    assert isinstance(number, Number)
    assert number.parsed.value == value
    assert number.parsed.decimal_places == places
    assert number.parsed.percent is percent


def test_a_quantity_keeps_its_unit() -> None:
    quantity = read("90 minutes")
    assert isinstance(quantity, Quantity)
    assert (quantity.value, quantity.kind, quantity.factor) == (Fraction(90), "time", Fraction(60))
    assert quantity.canonical != read("90 seconds").canonical


@pytest.mark.parametrize(
    ("text", "name", "value_type"),
    [
        ("x = 3", "x", Number),
        ("y = \\frac{\\pi}{2}", "y", Expr),
        ("t = 5 s", "t", Quantity),
        ("$k = 0.5$", "k", Number),
    ],
)
def test_one_unknown_and_its_value(text: str, name: str, value_type: type) -> None:
    assignment = read(text)
    assert isinstance(assignment, Assignment)
    assert assignment.name == name
    assert isinstance(assignment.value, value_type)


@pytest.mark.parametrize(
    "text",
    [
        "x = 2 \\text{ or } x = 3",  # several values of one unknown
        "x = 2 or x = 3",
        "a = 1, b = 2",  # several unknowns
        "P(x) = x^2",  # a function's name is left to normalisation
        "x^2 = 4",
    ],
)
def test_lists_and_equations_are_no_single_assignment(text: str) -> None:
    assert not isinstance(read(text), Assignment)


@pytest.mark.parametrize(("text", "letter"), [("(B)", "B"), ("Option c", "C"), ("D", "D")])
def test_option_letters(text: str, letter: str) -> None:
    choice = read(text)
    assert isinstance(choice, Choice) and choice.canonical == letter


@pytest.mark.parametrize(
    ("text", "letters", "separated"),
    [("A and C", "AC", True), ("(A), (C)", "AC", True), ("AC", "AC", False), ("B & D", "BD", True)],
)
def test_options_chosen(text: str, letters: str, separated: bool) -> None:
    options = read(text)
    assert isinstance(options, Options)
    assert options.letters == frozenset(letters) and options.separated is separated


def test_letters_together_are_options_and_what_else_they_read_as() -> None:
    letters = read("CD")
    assert isinstance(letters, Options) and not letters.separated
    assert isinstance(letters.written, Roman) and letters.written.value == 400


@pytest.mark.parametrize(("text", "value"), [("XIV", 14), ("$MCMXCIV$", 1994), ("XL", 40)])
def test_roman_numerals_keep_their_letters(text: str, value: int) -> None:
    roman = read(text)
    assert isinstance(roman, Roman) and roman.value == value
    assert isinstance(roman.written, Word)


@pytest.mark.parametrize("text", ["V", "IIII", "XM", "VX"])
def test_one_letter_and_malformed_numerals_are_not_roman(text: str) -> None:
    assert not isinstance(read(text), Roman)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("East", "east"),
        ("\\text{odd}", "odd"),
        ("No, it is not possible", "no"),  # a yes or a no before its reason
        ("\\text{Yes}: 91 = 7 \\cdot 13", "yes"),
        ("yes.", "yes"),
    ],
)
def test_words(text: str, words: str) -> None:
    word = read(text)
    assert isinstance(word, Word) and word.canonical == words


@pytest.mark.parametrize("text", ["x", "x^2+1", "\\sqrt{2}", "(1, 2)", "x \\ge 5"])
def test_everything_else_is_an_expression(text: str) -> None:
    assert isinstance(read(text), Expr)


def test_a_normalised_string_reads_as_its_type() -> None:
    assert isinstance(read_normalized("3/4"), Number)
    assert isinstance(read_normalized("B"), Choice)
    assert isinstance(read_normalized("west"), Word)
    assert isinstance(read_normalized("x+1"), Expr)


@pytest.mark.parametrize("text", ["", " ", "=", "x =", "$$", "\\frac{", "%", "1/0"])
def test_bad_input_reads_as_something(text: str) -> None:
    assert read(text).canonical is not None


def test_collections_of_expressions_read_entry_by_entry() -> None:
    interval = read("(\\sqrt{2}, \\pi]")
    assert isinstance(interval, Seq) and (interval.opening, interval.closing) == ("(", "]")
    assert [type(item) for item in interval.items] == [Expr, Expr]
    braced = read("\\{1 \\pm \\sqrt{5}, -2\\}")
    assert isinstance(braced, Set) and isinstance(braced.items[1], Number)
    listed = read("\\frac{1+\\sqrt5}{2}, \\frac{1-\\sqrt5}{2}")
    assert isinstance(listed, Set) and len(listed.items) == 2


@pytest.mark.parametrize("text", ["(1, 2)", "\\{1, 2\\}", "1, 2", "(x+1)(x-1)", "f(x, y)"])
def test_plain_number_collections_and_products_are_not_read_as_collections(text: str) -> None:
    # Plain numbers are compared exactly by structures.py; a product is an expression.
    assert not isinstance(read(text), Seq | Set)
