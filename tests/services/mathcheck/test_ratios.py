"""Ratios read in lowest terms."""

from __future__ import annotations

import pytest

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
    ratio = read_ratio(text)
    assert ratio is not None and ratio.terms == terms
    assert ratio.canonical == ":".join(map(str, terms))


@pytest.mark.parametrize("text", ["3", "x:y", "0:1", "50%:50%", "1:", ":", "a to b"])
def test_other_texts_are_no_ratio(text: str) -> None:
    assert read_ratio(text) is None
