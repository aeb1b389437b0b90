"""The fourth fresh round: the everyday spread of answer forms, in whole responses."""

from __future__ import annotations

from collections import Counter

from benchmarks import fresh_pairs_4
from benchmarks.responses import CLOSINGS, Responses


def test_round_is_large_and_every_pair_is_distinct() -> None:
    cases = fresh_pairs_4.CASES
    assert len(cases) >= 300
    assert len({(case.reference, case.answer) for case in cases}) == len(cases)
    assert not any(case.bare for case in cases)


def test_every_kind_has_equivalent_answers_and_near_misses() -> None:
    labels = Counter((case.category, case.label) for case in fresh_pairs_4.CASES)
    assert len(fresh_pairs_4.CATEGORIES) >= 10
    for kind in fresh_pairs_4.CATEGORIES:
        assert labels[(kind, True)] >= 5 and labels[(kind, False)] >= 5, kind


def test_each_answer_closes_a_response_in_the_next_style() -> None:
    responses = Responses()
    responses.pairs("kind", "2", "1 + 1 = 2.", ["2"] * len(CLOSINGS), ["3"])
    answers = [case.answer for case in responses.cases]
    assert len(set(answers[: len(CLOSINGS)])) == len(CLOSINGS)
    assert answers[-1] == CLOSINGS[0]("1 + 1 = 2.", "3")
    assert [case.label for case in responses.cases] == [True] * len(CLOSINGS) + [False]
    assert responses.categories == ("kind",)
