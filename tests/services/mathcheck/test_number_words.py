"""Numbers written in words, and Roman numerals."""

from __future__ import annotations

import pytest

from services.mathcheck.number_words import number_in_words, roman_numeral


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
