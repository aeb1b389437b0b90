"""The groups `make test` hands its two workers (tests/conftest.py) name tests that exist:
a renamed file would otherwise drop out of the order silently."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import GROUPS, LONGEST_FIRST

ROOT = Path(__file__).resolve().parents[1]


def test_every_group_prefix_names_existing_tests() -> None:
    for prefix in GROUPS:
        folder, _, stem = prefix.rpartition("/")
        assert any((ROOT / folder).glob(f"{stem}*")), prefix


def test_every_ordered_group_is_a_group_or_an_existing_file() -> None:
    for group in LONGEST_FIRST:
        assert group in GROUPS.values() or (ROOT / group).is_file(), group
