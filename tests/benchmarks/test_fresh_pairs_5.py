"""The fifth fresh round: olympiad and competition short answers, in whole responses."""

from __future__ import annotations

from collections import Counter

from benchmarks import fresh_pairs_5


def test_round_is_large_and_every_pair_is_distinct() -> None:
    cases = fresh_pairs_5.CASES
    assert len(cases) >= 300
    assert len({(case.reference, case.answer) for case in cases}) == len(cases)
    assert not any(case.bare for case in cases)


def test_every_kind_has_equivalent_answers_and_near_misses() -> None:
    labels = Counter((case.category, case.label) for case in fresh_pairs_5.CASES)
    assert len(fresh_pairs_5.CATEGORIES) >= 10
    for kind in fresh_pairs_5.CATEGORIES:
        assert labels[(kind, True)] >= 5 and labels[(kind, False)] >= 5, kind
