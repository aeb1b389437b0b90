"""The replica benchmarks' shared timing: workloads, CPU accounting, and one timed run
against a real replica."""

from __future__ import annotations

import os
import re

import pytest

from benchmarks.replica_timing import (
    add_speedups,
    code_batches,
    cores_split,
    machine_busy_s,
    math_batches,
    measure,
    own_cpu_s,
    replica_roots,
    tree_cpu_s,
    workload_parser,
)
from harness.service import running_replicas


def test_code_programs_are_unique_per_seed_and_their_tests_pass() -> None:
    batches = code_batches(10, 4, seed=1)
    assert [len(batch["items"]) for batch in batches] == [4, 4, 2]
    items = [item for batch in batches for item in batch["items"]]
    assert len({item["completion"] for item in items}) == 10
    assert not {i["completion"] for i in items} & {
        i["completion"] for b in code_batches(10, 4, seed=2) for i in b["items"]
    }
    for item in items:
        namespace: dict[str, object] = {}
        exec(re.sub(r"```(python)?", "", item["completion"]), namespace)
        for test in item["tests"]:
            exec(test["code"], namespace)  # raises when a test would fail


def test_math_batches_hold_the_pairs_asked_for() -> None:
    batches = math_batches(20, 8, seed=0)
    assert [len(batch["items"]) for batch in batches] == [8, 8, 4]
    assert all({"reference", "completion"} <= set(i) for b in batches for i in b["items"])


def test_cpu_clocks_count_work() -> None:
    own, tree, machine = own_cpu_s(), tree_cpu_s(os.getpid()), machine_busy_s()
    sum(i * i for i in range(3_000_000))
    assert own_cpu_s() > own
    assert tree_cpu_s(os.getpid()) >= tree
    assert machine_busy_s() >= machine


def test_speedups_and_the_cores_line() -> None:
    def row(per_s: float, cores: dict[str, float]) -> dict[str, dict[str, object]]:
        return {task: {"per_s": per_s, "cores": cores} for task in ("math", "code")}

    base = row(10.0, {"replica0": 0.5, "load_generator": 0.1, "other": 0.2})
    two = row(15.0, {"replica0": 0.5, "replica1": 0.25, "load_generator": 0.1, "other": 0.2})
    add_speedups([base, two], base)
    assert (base["math"]["speedup_vs_1"], two["code"]["speedup_vs_1"]) == (1.0, 1.5)
    names = ("replicas", "nginx", "load_generator", "other")
    assert cores_split(two, names) == "0.75 + 0.00 + 0.10 + 0.20 / 0.75 + 0.00 + 0.10 + 0.20"


def test_parser_takes_each_benchmarks_defaults() -> None:
    args = workload_parser("x", math_pairs=7, code_programs=3, concurrency=2).parse_args([])
    assert (args.math_pairs, args.math_batch, args.code_programs, args.code_batch) == (7, 64, 3, 8)
    assert args.concurrency == 2


@pytest.mark.timeout(180)
def test_a_timed_run_against_a_real_replica() -> None:
    with running_replicas(1) as (replica,):
        batches = code_batches(6, 3, seed=5)
        result = measure(replica.url, "/score/code", batches, 12, 2, replica_roots([replica.pid()]))
    assert (result["requests"], result["errors"]) == (2, [])
    assert set(result["cores"]) == {"replica0", "load_generator", "other"}
    assert result["cores"]["replica0"] > 0  # the replica ran the tests
    assert result["per_s"] == pytest.approx(12 / result["wall_s"], rel=0.05)
