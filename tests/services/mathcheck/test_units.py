"""Quantities with units compared in one unit."""

from __future__ import annotations

import pytest

from services.mathcheck.units import in_common_unit


@pytest.mark.parametrize(
    ("reference", "answer", "converted"),
    [
        (r"3 \text{ hours}", "180 minutes", ("3", "3")),
        ("1.5 hours", r"90 \text{ minutes}", ("3/2", "3/2")),
        (r"2 \text{ m}", r"200 \text{ cm}", ("2", "2")),
        (r"5 \text{ cm}^2", r"500 \text{ mm}^2", ("5", "5")),
        ("1 square meter", "10000 cm^2", ("1", "1")),
        (r"\$12.40", "1240 cents", ("62/5", "62/5")),
        ("1 ft", "12 in", ("1", "1")),
        ("3 hours", "3 minutes", ("3", "1/20")),
    ],
)
def test_one_kind_of_quantity_is_compared_in_the_references_unit(
    reference: str, answer: str, converted: tuple[str, str]
) -> None:
    assert in_common_unit(reference, answer) == converted


@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        ("5 s", "5 m"),  # different kinds: left to normalisation
        ("3 hours", "3 hours"),  # the same unit: nothing to convert
        ("5", "500 cents"),  # one side without a unit
        ("5 cm^2", "5 mm"),  # an area against a length
        ("x cm", "2 cm"),
    ],
)
def test_other_pairs_are_not_converted(reference: str, answer: str) -> None:
    assert in_common_unit(reference, answer) is None
