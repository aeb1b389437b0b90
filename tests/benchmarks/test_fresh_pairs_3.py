"""The third fresh round: whole responses, every kind with equivalent answers and near-misses."""

from __future__ import annotations

from collections import Counter

from benchmarks import fresh_pairs_3, math_fresh3_bench


def test_round_is_large_and_every_pair_is_distinct() -> None:
    cases = fresh_pairs_3.CASES
    assert len(cases) >= 300
    assert len({(case.reference, case.answer) for case in cases}) == len(cases)
    # Whole responses: the answer is found in them, not given bare.
    assert not any(case.bare for case in cases)


def test_every_kind_has_equivalent_answers_and_near_misses() -> None:
    labels = Counter((case.category, case.label) for case in fresh_pairs_3.CASES)
    assert set(fresh_pairs_3.CATEGORIES) >= {
        "functions",
        "solution_lists",
        "identities",
        "relations",
        "repeating_decimals",
        "near_equal",
        "truncated",
    }
    for kind in fresh_pairs_3.CATEGORIES:
        assert labels[(kind, True)] >= 5 and labels[(kind, False)] >= 5, kind


def test_responses_close_in_the_ways_models_write() -> None:
    answers = [case.answer for case in fresh_pairs_3.CASES]
    for closing in ("\\boxed{", "<answer>", "Final Answer: The final answer is", "The answer is"):
        assert sum(closing in answer for answer in answers) >= 20, closing


def test_the_benchmark_writes_its_own_results_file() -> None:
    assert math_fresh3_bench.RESULTS_FILE == "math_fresh3_bench.json"
    assert math_fresh3_bench.CORPUS not in {"main", "bare", "fresh", "fresh2"}
