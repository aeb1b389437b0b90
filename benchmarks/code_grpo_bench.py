"""GRPO-shaped code benchmark: one step's completions, some of which hang, scored three ways.

The workload (seeded, written here, not sampled from a model): ``--programs`` programs (256)
in GRPO groups of 8, five tests each (``assert f(x) == ...``). Of the programs, 10 % spin
forever, 10 % are honest but slow (0.2, 0.5 or 0.8 s of CPU per call), the rest are fast
(half right, half wrong). A group repeats programs the way a policy's samples of one
prompt do: every right answer of a group is the same text, and so is every spinner.

In the same run, with a per-test timeout of 1 s (the Q paper's default):

* ours: the real service on loopback (default settings), the whole step as one
  ``/score/code`` request, every test in the bubblewrap sandbox;
* the Q paper's harness: one ``python file.py`` subprocess per test, sequential;
* an exit-status runner: one subprocess per test in a thread pool of one thread per core
  (the SandboxFusion pattern);
* the CPU-bound ideal: the CPU the honest programs' tests need (measured in-process) plus
  one timeout per distinct spinning program (what a hang must be given at least), over
  the cores; and the same for running every test of every item (no skipping, no reuse).

Reports wall-clock time and CPU-seconds (the service's process tree; the runners' own
children). Writes ``benchmarks/results/code_grpo_bench.json`` (``--out``), prints a table
and the JSON's path. ``--quick``: 32 programs, for a smoke run. ``--cores`` (default: the
CPUs this process may run on) sets the ideal's cores and the thread pool's size;
``--workers`` the service's sandbox workers (default: as many as ``--cores``); nothing
else depends on the machine's size.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.process_per_test import run_file
from harness.service import ServiceProcess

RESULTS = Path(__file__).resolve().parent / "results"
GROUP = 8
TESTS = 5
TIMEOUT_S = 1.0
SLOW_CPU_S = (0.2, 0.5, 0.8)
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class Program:
    kind: str  # right | wrong | slow | spin
    source: str
    tests: tuple[str, ...]


def _right(k: int, c: int) -> str:
    return f"def f(x):\n    return {k} * x + {c}\n"


def _slow(k: int, c: int, cpu_s: float) -> str:
    return (
        "import time\n\n\ndef f(x):\n"
        f"    end = time.process_time() + {cpu_s}\n"
        "    while time.process_time() < end:\n        pass\n"
        f"    return {k} * x + {c}\n"
    )


SPIN = "def f(x):\n    while True:\n        pass\n"
WRONG = ("def f(x):\n    return x\n", "def f(x):\n    return 0\n")


def workload(programs: int, seed: int) -> list[Program]:
    """``programs`` programs in groups of 8: 10 % spin, 10 % slow, the rest fast."""
    rng = random.Random(seed)
    spin = slow = programs // 10
    fast = programs - spin - slow
    kinds = (
        ["spin"] * spin + ["slow"] * slow + ["right"] * (fast // 2) + ["wrong"] * (fast - fast // 2)
    )
    rng.shuffle(kinds)
    out = []
    for start in range(0, programs, GROUP):
        k, c = rng.randint(2, 9), rng.randint(0, 99)
        tests = tuple(f"assert f({x}) == {k * x + c}" for x in range(1, TESTS + 1))
        for kind in kinds[start : start + GROUP]:
            source = {
                "spin": SPIN,
                "slow": _slow(k, c, rng.choice(SLOW_CPU_S)),
                "right": _right(k, c),
                "wrong": rng.choice(WRONG),
            }[kind]
            out.append(Program(kind, source, tests))
    return out


def honest_cpu_s(program: Program) -> float:
    """CPU the program's tests need, measured in this process (spinners: not run)."""
    if program.kind == "spin":
        return 0.0
    started = time.process_time()
    for test in program.tests:
        scope: dict[str, Any] = {}
        exec(program.source, scope)  # our own generated programs, not a model's
        with contextlib.suppress(AssertionError):  # a wrong program costs its CPU too
            exec(test, scope)
    return time.process_time() - started


def ideal(programs: list[Program], cores: int) -> dict[str, Any]:
    cpu = {p: honest_cpu_s(p) for p in set(programs)}
    distinct = set(programs)
    spinners_distinct = sum(p.kind == "spin" for p in distinct)
    spinners_all = sum(p.kind == "spin" for p in programs)
    reused = sum(cpu[p] for p in distinct) + spinners_distinct * TIMEOUT_S
    every = sum(cpu[p] for p in programs) + spinners_all * TESTS * TIMEOUT_S
    return {
        "seconds": round(reused / cores, 3),
        "honest_cpu_s": round(sum(cpu[p] for p in distinct), 3),
        "spin_budget_s": spinners_distinct * TIMEOUT_S,
        "distinct_programs": len(distinct),
        "every_test_seconds": round(every / cores, 3),
    }


# ---------------------------------------------------------------------- ours (the service)


def _tree_cpu_s(root: int) -> float:
    """User + system CPU of ``root`` and every live descendant, with the children each has
    waited for (exited sandbox jobs and replaced workers count through their parent)."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        parent, ticks = int(fields[1]), sum(int(v) for v in fields[11:15])
        stats[int(entry)] = (parent, ticks / TICKS)
    total, frontier = 0.0, [root]
    while frontier:
        pid = frontier.pop()
        total += stats.get(pid, (0, 0.0))[1]
        frontier.extend(child for child, (parent, _) in stats.items() if parent == pid)
    return total


def _item(program: Program) -> dict[str, Any]:
    return {
        "language": "python",
        "completion": f"```python\n{program.source}```",
        "tests": [{"code": test} for test in program.tests],
        "max_tests": TESTS,
        "timeout_s": TIMEOUT_S,
    }


# Starts the service's workers before the clock does; not a program of the workload, so
# the service's run cache cannot answer part of the step from it.
WARM_UP = Program("right", "def f(x):\n    return x  # warm-up\n", ("assert f(1) == 1",))


def run_ours(programs: list[Program], workers: int) -> dict[str, Any]:
    service = ServiceProcess({"VERIFIER_SANDBOX_WORKERS": str(workers)})
    try:
        service.start()
        service.wait_ready()
        with httpx.Client(base_url=service.url, timeout=1200) as client:
            warm = client.post("/score/code", json={"items": [_item(WARM_UP)]})
            warm.raise_for_status()
            cpu_before = _tree_cpu_s(service.pid())
            started = time.perf_counter()
            response = client.post("/score/code", json={"items": [_item(p) for p in programs]})
            elapsed = time.perf_counter() - started
            cpu = _tree_cpu_s(service.pid()) - cpu_before
        response.raise_for_status()
        results = response.json()["results"]
    finally:
        service.stop()
    return {
        "seconds": round(elapsed, 3),
        "cpu_s": round(cpu, 3),
        "tests_passed": int(sum(r["components"].get("tests_passed", 0) for r in results)),
        "statuses": dict(Counter(r["status"] for r in results)),
        "not_ok": sorted({r["detail"][:160] for r in results if r["status"] != "ok"})[:5],
    }


# ---------------------------------------------------------------------- the peers' runners


def _run_test(source: str, test: str) -> bool:
    """One test as its own process: passed when it exits 0 within the timeout."""
    return run_file(source + "\n" + test + "\n", TIMEOUT_S)


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(run: Callable[[], list[bool]]) -> dict[str, Any]:
    cpu_before = _children_cpu_s()
    started = time.perf_counter()
    passed = run()
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_s": round(_children_cpu_s() - cpu_before, 3),
        "tests_passed": sum(passed),
    }


def run_q_paper(programs: list[Program]) -> dict[str, Any]:
    return _timed(lambda: [_run_test(p.source, t) for p in programs for t in p.tests])


def run_exit_status_pool(programs: list[Program], cores: int) -> dict[str, Any]:
    pairs = [(p.source, t) for p in programs for t in p.tests]
    with ThreadPoolExecutor(cores) as pool:
        return _timed(lambda: list(pool.map(lambda pair: _run_test(*pair), pairs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--quick", action="store_true", help="32 programs: a smoke run")
    parser.add_argument(
        "--cores", type=int, default=len(os.sched_getaffinity(0)), help="cores to count"
    )
    parser.add_argument("--workers", type=int, help="the service's sandbox workers")
    parser.add_argument("--out", type=Path, help="where the JSON goes")
    args = parser.parse_args()
    count = 32 if args.quick else args.programs
    programs = workload(count, args.seed)
    cores = args.cores
    workers = args.workers or cores
    print(f"{count} programs x {TESTS} tests, {cores} cores, {workers} workers", file=sys.stderr)
    load_at_start = os.getloadavg()[0]
    best = ideal(programs, cores)
    print("ours...", file=sys.stderr)
    ours = run_ours(programs, workers)
    print("exit-status runner, thread pool...", file=sys.stderr)
    pool = run_exit_status_pool(programs, cores)
    print("Q paper harness, sequential...", file=sys.stderr)
    q_paper = run_q_paper(programs)
    report = {
        "programs": count,
        "tests": count * TESTS,
        "group": GROUP,
        "timeout_s": TIMEOUT_S,
        "kinds": dict(Counter(p.kind for p in programs)),
        "cores": cores,
        "sandbox_workers": workers,
        "load_average_at_start": round(load_at_start, 2),
        "quick": args.quick,
        "ideal": best,
        "ours": ours,
        "exit_status_pool": pool,
        "q_paper": q_paper,
        "ours_vs_ideal": round(ours["seconds"] / best["seconds"], 2),
        "q_paper_vs_ours": round(q_paper["seconds"] / ours["seconds"], 2),
        "pool_vs_ours": round(pool["seconds"] / ours["seconds"], 2),
    }
    RESULTS.mkdir(exist_ok=True)
    name = "code_grpo_bench_quick.json" if args.quick else "code_grpo_bench.json"
    out = args.out or RESULTS / name
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(table(report))
    print(f"wrote {out}")


def table(report: dict[str, Any]) -> str:
    """The Markdown table of one run."""
    best = report["ideal"]
    rows = [
        "| path | seconds | CPU-seconds | tests passed |",
        "|---|---|---|---|",
        f"| CPU-bound ideal (distinct programs, one timeout per hang) | {best['seconds']} | "
        f"{round(best['honest_cpu_s'] + best['spin_budget_s'], 3)} | |",
        f"| CPU-bound ideal, every test of every item | {best['every_test_seconds']} | | |",
    ]
    for key, label in (
        ("ours", "ours: `/score/code`, one request, bwrap sandbox"),
        ("exit_status_pool", "exit-status runner, process per test, thread pool"),
        ("q_paper", "Q paper harness: process per test, sequential"),
    ):
        run = report[key]
        rows.append(f"| {label} | {run['seconds']} | {run['cpu_s']} | {run['tests_passed']} |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
