"""Ratios read in lowest terms."""

from __future__ import annotations

import pytest

from services.mathcheck.latex_tokens import answer_tokens
from services.mathcheck.normalization import normalize_answer
from services.mathcheck.ratios import read_ratio


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("1:2:3", (1, 2, 3)),
        ("2:4:6", (1, 2, 3)),
        ("2 to 3", (2, 3)),
        ("2 \\colon 3", (2, 3)),
        ("1.5:3", (1, 2)),
        ("\\frac{1}{2} : 1", (1, 2)),
        ("$4:6$", (2, 3)),
    ],
)
def test_a_ratio_reads_in_lowest_terms(text: str, terms: tuple[int, ...]) -> None:
    ratio = read_ratio(answer_tokens(text), normalize_answer(text))
    assert ratio is not None and ratio.terms == terms
    assert ratio.canonical == ":".join(map(str, terms))


@pytest.mark.parametrize("text", ["3", "x:y", "0:1", "50%:50%", "1:", ":", "a to b"])
def test_other_texts_are_no_ratio(text: str) -> None:
    assert read_ratio(answer_tokens(text), normalize_answer(text)) is None


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("20:34", (20, 34)),  # not 10:17
        ("$10:20$", (10, 20)),
        ("8:34 p.m.", (20, 34)),  # on the 24-hour clock, as normalisation writes it
        ("20:34:00", (20, 34)),
        ("08:34 \\text{P.M.}", (20, 34)),
        ("3:45", (3, 45)),
        ("10:17", (10, 17)),  # in lowest terms either way
    ],
)
def test_a_time_of_day_keeps_its_terms(text: str, terms: tuple[int, ...]) -> None:
    ratio = read_ratio(answer_tokens(text), normalize_answer(text))
    assert ratio is not None and ratio.terms == terms


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("2:4", (1, 2)),  # one digit after the colon: no time
        ("24:36", (2, 3)),  # no hour
        ("10:60", (1, 6)),  # no minute
        ("100:20", (5, 1)),
        ("2:4:6", (1, 2, 3)),
    ],
)
def test_what_is_no_time_still_reduces(text: str, terms: tuple[int, ...]) -> None:
    ratio = read_ratio(answer_tokens(text), normalize_answer(text))
    assert ratio is not None and ratio.terms == terms
