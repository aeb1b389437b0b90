"""The exact values of numbers as written, the one rounding rule, numbers written in words,
and Roman numerals."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.mathcheck.written_numbers import (
    approximates,
    number_in_words,
    numbers_match,
    parse_number,
    roman_numeral,
)


@pytest.mark.parametrize(
    ("text", "value", "places", "percent"),
    [
        ("1,000,000", Fraction(1_000_000), None, False),
        ("1,22", Fraction(122, 100), 2, False),  # a decimal comma
        ("0,111", Fraction(111, 1000), 3, False),  # no thousands group starts with 0
        ("1,00", Fraction(1), 2, False),
        ("-0.50", Fraction(-1, 2), 2, False),
        (".5", Fraction(1, 2), 1, False),
        ("3/4", Fraction(3, 4), None, False),
        ("\\frac{-1}{2}", Fraction(-1, 2), None, False),
        ("-\\frac{1}{2}", Fraction(-1, 2), None, False),
        ("\\frac34", Fraction(3, 4), None, False),
        ("2\\frac{1}{2}", Fraction(5, 2), None, False),
        ("1.5e3", Fraction(1500), None, False),
        ("1.5\\times10^{3}", Fraction(1500), None, False),
        ("2\\cdot10^{-7}", Fraction(2, 10**7), None, False),
        ("12.5%", Fraction(25, 2), 1, True),
        ("0.\\overline{3}", Fraction(1, 3), None, False),
        ("0.1\\overline{6}", Fraction(1, 6), None, False),
    ],
)
def test_parse_number(text: str, value: Fraction, places: int | None, percent: bool) -> None:
    parsed = parse_number(text)
    assert parsed is not None
    assert (parsed.value, parsed.decimal_places, parsed.percent) == (value, places, percent)


@pytest.mark.parametrize("text", ["x", "1/0", "1e999999", "32, 349", "1,2,3", "2 -1/2", "", "."])
def test_parse_number_refuses(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("1/3", "0.333333", True),
        ("1/3", "0.3333", True),  # 1/3 rounded to four places
        ("8/3", "2.6667", True),
        ("1/3", "0.333", True),
        ("1/3", "0.33", False),  # two places are too few to stand for 1/3
        ("1/3", "0.3334", False),  # not 1/3 rounded
        ("1/999", "0.001", False),  # one significant digit
        ("2/3", "0.666667", True),
        ("50%", "50", True),
        ("50%", "0.5", True),
        ("50%", "5", False),
        ("10^{-7}", "2\\cdot10^{-7}", False),
        ("0.000000", "1e-30", False),
    ],
)
def test_numbers_match(reference: str, answer: str, equal: bool) -> None:
    ref, ans = parse_number(reference), parse_number(answer)
    assert ref is not None and ans is not None
    assert numbers_match(ref, ans) is equal


@settings(max_examples=200, deadline=None)
@given(st.fractions(max_denominator=10**6), st.integers(1, 1000))
def test_equal_fractions_in_any_notation_match(value: Fraction, scale: int) -> None:
    plain = f"{value.numerator}/{value.denominator}"
    unreduced = f"\\frac{{{value.numerator * scale}}}{{{value.denominator * scale}}}"
    left, right = parse_number(plain), parse_number(unreduced)
    assert left is not None and right is not None and numbers_match(left, right)
    if value != 0:
        off = parse_number(f"{value.numerator + 1}/{value.denominator}")
        assert off is not None and not numbers_match(left, off)


@pytest.mark.parametrize(
    ("exact", "decimal", "places", "stands_for"),
    [
        (Fraction(1, 3), Fraction(333, 1000), 3, True),
        (Fraction(1, 3), Fraction(33, 100), 2, False),  # two places are too few
        (Fraction(2469, 200), Fraction(1235, 100), 2, True),  # a tie rounds either way
        (Fraction(2469, 200), Fraction(1234, 100), 2, True),
        (Fraction(2469, 200), Fraction(1236, 100), 2, False),
        (Fraction(1, 999), Fraction(1, 1000), 3, False),  # one significant digit
        (Fraction(1, 3), Fraction(333, 1000), None, False),  # exact notation: no rounding
        (Fraction(0), Fraction(0), 3, False),  # zero rounds nothing
    ],
)
def test_a_decimal_stands_for_what_it_rounds(
    exact: Fraction, decimal: Fraction, places: int | None, stands_for: bool
) -> None:
    assert approximates(exact, decimal, places) is stands_for


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("seven", "7"),
        ("twenty-five", "25"),
        ("twenty five", "25"),
        ("one hundred and twelve", "112"),
        ("two thousand and five", "2005"),
        ("three million", "3000000"),
        ("a dozen", "12"),
        ("third", "3"),
        ("twentieth", "20"),
        ("21st", "21"),
        ("two thirds", "\\frac{2}{3}"),
        ("five twelfths", "\\frac{5}{12}"),
        ("a half", "\\frac{1}{2}"),
        ("half", "\\frac{1}{2}"),
        ("ten percent", "10%"),
        ("negative three", "-3"),
    ],
)
def test_a_number_in_words_is_its_digits(text: str, number: str) -> None:
    assert number_in_words(text) == number


@pytest.mark.parametrize(
    "text",
    ["monday", "none", "hundred", "and", "two seconds", "negative", "negative minus three", ""],
)
def test_words_that_name_no_number_are_left_alone(text: str) -> None:
    assert number_in_words(text) is None


@pytest.mark.parametrize(("text", "value"), [("IV", 4), ("XIV", 14), ("MCMXCIV", 1994)])
def test_a_roman_numeral_is_its_value(text: str, value: int) -> None:
    assert roman_numeral(text) == value


@pytest.mark.parametrize("text", ["I", "C", "IIII", "VX", "AB", "iv"])
def test_one_letter_and_malformed_numerals_are_not_numbers(text: str) -> None:
    assert roman_numeral(text) is None
