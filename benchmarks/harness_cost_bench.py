"""What each verdict path costs per test, through ``Sandbox.run_tests`` with one worker.

Rounds are interleaved (one test of each shape per round, in turn) so that load on a shared
machine falls on every shape alike; the medians are printed as a Markdown table and written
to ``benchmarks/results/harness_cost_bench.json``. Shapes: a stdin/stdout test (no
harness: the program runs as a script), a split assert, a split assert whose expected side
is not a literal (a second, reference run), an opaque test calling the program once, and
one calling it 100 times (HumanEval/53's loop).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox import Language, Limits, Sandbox, SandboxConfig, TestCase  # noqa: E402

PROGRAM = "def add(a, b):\n    return a + b\n"
SHAPES = {
    "stdin/stdout test, no harness": TestCase(stdin="", expected=""),
    "split assert": TestCase(code="assert add(2, 3) == 5"),
    "split assert, expected side run apart": TestCase(code="assert add(2, 3) == sum([2, 3])"),
    "opaque test, 1 call": TestCase(code="for a in [2]:\n    assert add(a, 3) == a + 3"),
    "opaque test, 100 calls": TestCase(code="for a in range(100):\n    assert add(a, 3) == a + 3"),
}


async def measure(rounds: int) -> dict[str, list[float]]:
    box = Sandbox(SandboxConfig(workers=1))
    times: dict[str, list[float]] = {name: [] for name in SHAPES}
    try:
        await box.warmup()
        for _ in range(rounds):
            for name, test in SHAPES.items():
                started = time.perf_counter()
                (outcome,) = await box.run_tests(Language.PYTHON, PROGRAM, [test], Limits())
                times[name].append(time.perf_counter() - started)
                assert outcome.passed, (name, outcome)
    finally:
        await box.aclose()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument(
        "--out", type=Path, default=ROOT / "benchmarks/results/harness_cost_bench.json"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]
    times = asyncio.run(measure(args.rounds))
    medians = {name: round(1000 * statistics.median(t), 2) for name, t in times.items()}
    report = {
        "rounds": args.rounds,
        "cpus": os.cpu_count(),
        "load_average_at_start": round(load, 2),
        "median_ms": medians,
    }
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print("| test | median per test |\n|---|---|")
    for name, value in medians.items():
        print(f"| {name} | {value} ms |")
    print(f"\n{args.rounds} rounds, load average {load:.1f} at start, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
