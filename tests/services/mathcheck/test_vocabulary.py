"""The shared vocabulary of the answer readers: option letters, relations, scale words and
units with their exact factors."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from services.mathcheck.vocabulary import (
    CHOICE_LETTERS,
    CONSTANT_LETTERS,
    POWER_WORD,
    POWER_WORDS,
    RELATION_SPELLINGS,
    REVERSED_RELATION,
    SCALE_WORDS,
    TEXT_FONT,
    UNIT_NAME,
    UNITS,
    VARIABLE_FONT,
)


@pytest.mark.parametrize(
    ("text", "letter"), [("A", True), ("E", True), ("F", False), ("AB", False), ("a", False)]
)
def test_an_option_letter_is_one_of_a_to_e(text: str, letter: bool) -> None:
    assert (text in CHOICE_LETTERS) is letter


def test_every_relation_spelling_stands_for_one_that_is_its_own_spelling() -> None:
    assert RELATION_SPELLINGS["≥"] == RELATION_SPELLINGS[">="] == "\\ge"
    assert RELATION_SPELLINGS["\\neq"] == "\\ne"
    assert set(RELATION_SPELLINGS.values()).isdisjoint(RELATION_SPELLINGS)


def test_a_reversed_relation_reversed_again_is_itself() -> None:
    assert all(REVERSED_RELATION[REVERSED_RELATION[rel]] == rel for rel in REVERSED_RELATION)


def test_scale_words_multiply_by_their_value() -> None:
    assert (SCALE_WORDS["dozen"], SCALE_WORDS["million"]) == (12, 10**6)


@pytest.mark.parametrize(
    ("spelling", "unit"),
    [
        ("hour", ("time", Fraction(3600))),
        ("hours", ("time", Fraction(3600))),
        ("hrs", ("time", Fraction(3600))),
        ("inches", ("length", Fraction(254, 10000))),
        ("mi", ("length", Fraction(1609344, 1000))),
        ("lbs", ("mass", Fraction(45359237, 100000))),
        ("litres", ("volume", Fraction(1000))),
        ("cents", ("money", Fraction(1))),
    ],
)
def test_a_unit_spelling_names_its_kind_and_exact_factor(
    spelling: str, unit: tuple[str, Fraction]
) -> None:
    assert UNITS[spelling] == unit


@pytest.mark.parametrize("spelling", ["ms", "hs", "kms"])
def test_a_short_unit_gets_no_plural(spelling: str) -> None:
    assert spelling not in UNITS


def test_a_constant_letter_is_lower_case_and_no_option_letter_as_written() -> None:
    assert all(letter not in CHOICE_LETTERS for letter in CONSTANT_LETTERS)
    assert all(letter.upper() in CHOICE_LETTERS for letter in CONSTANT_LETTERS)


def test_unit_names_and_power_words_are_the_vocabulary_as_alternations() -> None:
    assert set(UNIT_NAME.replace("\\", "").split("|")) == set(UNITS)
    assert set(POWER_WORD.replace("\\", "").split("|")) == set(POWER_WORDS)
    assert re.fullmatch(POWER_WORD, "sq.") and re.fullmatch(UNIT_NAME, "miles")


def test_a_font_is_for_words_or_for_variables_never_both() -> None:
    assert set(TEXT_FONT.split("|")).isdisjoint(VARIABLE_FONT.split("|"))
