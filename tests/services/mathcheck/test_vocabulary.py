"""The shared vocabulary of the answer readers: option letters, relations, scale words and
units with their exact factors."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.mathcheck.vocabulary import (
    ONE_CHOICE_LETTER,
    RELATION_SPELLINGS,
    REVERSED_RELATION,
    SCALE_WORDS,
    UNITS,
)


@pytest.mark.parametrize(
    ("text", "letter"), [("A", True), ("E", True), ("F", False), ("AB", False)]
)
def test_one_choice_letter_is_one_of_a_to_e(text: str, letter: bool) -> None:
    assert (ONE_CHOICE_LETTER.match(text) is not None) is letter


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
