"""The GRPO-shaped code benchmark's workload: the mix the issue describes, and its ideal."""

from __future__ import annotations

from collections import Counter

from benchmarks.code_grpo_bench import GROUP, TESTS, TIMEOUT_S, WARM_UP, ideal, workload


def test_the_workload_has_the_grpo_shape() -> None:
    programs = workload(256, seed=25)
    kinds = Counter(p.kind for p in programs)
    assert kinds["spin"] == kinds["slow"] == 25
    assert kinds["right"] + kinds["wrong"] == 206
    assert all(len(p.tests) == TESTS for p in programs)
    groups = [programs[i : i + GROUP] for i in range(0, 256, GROUP)]
    assert len(groups) == 32
    # Programs repeat inside groups (one text per right answer, per spinner), not across
    # groups' tests: each group has its own function to write.
    assert sum(len(g) - len(set(g)) for g in groups) > 32
    assert len({g[0].tests for g in groups}) > 1
    assert workload(256, seed=25) == programs  # seeded


def test_the_ideal_gives_each_distinct_hang_one_timeout() -> None:
    programs = workload(32, seed=3)
    best = ideal(programs, cores=2)
    distinct_spinners = len({p for p in programs if p.kind == "spin"})
    assert best["spin_budget_s"] == distinct_spinners * TIMEOUT_S
    # Each figure is rounded to milliseconds on its own.
    assert abs(best["seconds"] - (best["honest_cpu_s"] + best["spin_budget_s"]) / 2) < 0.002
    assert best["every_test_seconds"] >= best["seconds"]


def test_the_warm_up_program_is_not_part_of_the_step() -> None:
    # The service reuses runs across requests: a warm-up from the workload would be free.
    assert WARM_UP.source not in {p.source for p in workload(256, 25)}
