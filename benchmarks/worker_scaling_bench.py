"""Scaling inside one replica: math and sandbox workers swept 1, 2, 4, … up to the cores seen.

For each worker count a fresh service (cold verdict cache) scores the same work: math pairs
that the fast exact checks cannot decide, so every distinct answer costs a symbolic
comparison (``math_dataset``'s symbolic categories), and unique small Python programs with
two tests each. Throughput is pairs/s and test executions/s; the ideal line is the
1-worker rate times the worker count.

While each workload runs, the CPU time of the service's own process (HTTP, validation,
extraction, fast paths, JSON, pool dispatch) and of its worker processes is read from
/proc. The CPU-seconds the service process spends per item bound one replica at
``1 / that`` items/s however many workers it has: the table prints that ceiling, which is
what caps scaling on a machine with more cores than this one.

Worker counts above the cores seen are marked oversubscribed (``--beyond``). Writes
``benchmarks/results/worker_scaling_bench.json`` and prints a Markdown table. A benchmark, not a
test: absolute numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.math_dataset import build_dataset
from benchmarks.replica_timing import (
    code_batches,
    drive,
    machine_busy_s,
    own_cpu_s,
    tree_cpu_s,
)
from harness.service import ServiceProcess

RESULTS = Path(__file__).resolve().parent / "results"
TICKS = os.sysconf("SC_CLK_TCK")
# Answers these categories produce need sympy to be judged (the others are mostly decided
# by the normalised-string and numeric fast paths, which never reach the workers).
SYMBOLIC_CATEGORIES = ("latex_expression", "root", "set", "interval", "tuple", "matrix")


def cores_seen() -> int:
    return len(os.sched_getaffinity(0))


def sweep(cores: int, beyond: bool) -> list[int]:
    counts = [1]
    while counts[-1] * 2 <= cores:
        counts.append(counts[-1] * 2)
    if counts[-1] != cores:
        counts.append(cores)
    if beyond:
        counts.append(2 * cores)
    return counts


def reasoning(chars: int, seed: int) -> str:
    """``chars`` characters of step-by-step prose with no answer marker in it, the bulk of
    a real model's completion that extraction and format scoring read through."""
    steps: list[str] = []
    index = 0
    while sum(len(step) for step in steps) < chars:
        index += 1
        steps.append(
            f"Step {index}: rewrite term {seed % 97 + index} of the expression, "
            f"collect like terms and check that $x_{index} = {index * 3} - {index}$.\n"
        )
    return "".join(steps)[:chars]


def math_batches(pairs: int, batch: int, seed: int, pad_chars: int) -> list[dict[str, Any]]:
    """``pairs`` pairs from the symbolic categories, in GRPO groups of 8, batched; each
    completion is preceded by ``pad_chars`` characters of reasoning."""
    items: list[dict[str, Any]] = []
    references = pairs // 4
    while len(items) < pairs:
        for pair in build_dataset(n_references=references, group_size=8, seed=seed):
            if pair.category in SYMBOLIC_CATEGORIES and len(items) < pairs:
                completion = reasoning(pad_chars, len(items)) + pair.completion
                items.append({"reference": pair.reference, "completion": completion})
        seed += 1_000
    return [{"items": items[i : i + batch]} for i in range(0, len(items), batch)]


def process_cpu_s(pid: int) -> float:
    """CPU seconds of ``pid`` itself (its threads), not of its children."""
    fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def measure(
    service: ServiceProcess, path: str, batches: list[dict[str, Any]], units: int, concurrency: int
) -> dict[str, Any]:
    pid = service.pid()
    own_before, tree_before = process_cpu_s(pid), tree_cpu_s(pid)
    machine_before, client_before = machine_busy_s(), own_cpu_s()
    start = time.perf_counter()
    run = asyncio.run(drive(service.url, path, batches, concurrency))
    wall = time.perf_counter() - start
    own = process_cpu_s(pid) - own_before
    workers = tree_cpu_s(pid) - tree_before - own
    busy = machine_busy_s() - machine_before
    client = own_cpu_s() - client_before
    return {
        **run,
        "wall_s": round(wall, 3),
        "per_s": round(units / wall, 1),
        "service_process_cores": round(own / wall, 2),
        "worker_cores": round(workers / wall, 2),
        "load_generator_cores": round(client / wall, 2),
        "machine_busy_cores": round(busy / wall, 2),
        # CPU the one service process spends per unit: 1 / this is what that process can
        # sustain at most, however many workers it feeds.
        "service_process_ms_per_unit": round(1000 * own / units, 3),
        "worker_ms_per_unit": round(1000 * workers / units, 3),
        "service_process_ceiling_per_s": round(units / own, 1) if own else None,
    }


def run_service(
    env: dict[str, str],
    workers: int,
    work: dict[str, tuple[list[dict[str, Any]], int]],
    concurrency: int,
) -> dict[str, dict[str, Any]]:
    """One fresh service; each workload of ``work`` (path: batches, units) measured in turn."""
    service_env = {
        **env,
        "VERIFIER_MATH_WORKERS": str(workers),
        "VERIFIER_SANDBOX_WORKERS": str(workers),
    }
    service = ServiceProcess(service_env)
    try:
        service.start()
        service.wait_ready(180)
        # Warm-up: connections and the first fork of each sandbox worker.
        asyncio.run(drive(service.url, "/score/code", code_batches(2 * workers, 8, 999), 2))
        return {
            path: measure(service, path, batches, units, concurrency)
            for path, (batches, units) in work.items()
        }
    finally:
        service.stop()


def run_config(
    workers: int,
    env: dict[str, str],
    math_work: list[dict[str, Any]],
    code_work: list[dict[str, Any]],
    units: tuple[int, int],
    concurrency: int,
) -> dict[str, Any]:
    both = {"/score/math": (math_work, units[0]), "/score/code": (code_work, units[1])}
    measured = run_service(env, workers, both, concurrency)
    return {
        "workers": workers,
        "oversubscribed": workers > cores_seen(),
        "math": measured["/score/math"],
        "code": measured["/score/code"],
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        "| workers | math pairs/s | × 1 worker (ideal) | service-process ms/pair "
        "| worker ms/pair | one-process ceiling pairs/s | code executions/s "
        "| × 1 worker (ideal) | service tree cores, math / code |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        m, c = row["math"], row["code"]
        mark = " (oversubscribed)" if row["oversubscribed"] else ""
        tree_m = m["service_process_cores"] + m["worker_cores"]
        tree_c = c["service_process_cores"] + c["worker_cores"]
        lines.append(
            f"| {row['workers']}{mark} | {m['per_s']} | {m['speedup']} ({row['workers']}) "
            f"| {m['service_process_ms_per_unit']} | {m['worker_ms_per_unit']} "
            f"| {m['service_process_ceiling_per_s']} "
            f"| {c['per_s']} | {c['speedup']} ({row['workers']}) "
            f"| {tree_m:.2f} / {tree_c:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--math-pairs", type=int, default=1536)
    parser.add_argument("--math-batch", type=int, default=64)
    parser.add_argument(
        "--pad-chars",
        type=int,
        default=2000,
        help="Reasoning text before each math answer (model outputs are long).",
    )
    parser.add_argument("--code-programs", type=int, default=400)
    parser.add_argument("--code-batch", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument(
        "--max-workers", type=int, default=0, help="Largest worker count (default: the cores seen)."
    )
    parser.add_argument(
        "--beyond",
        action="store_true",
        help="Also run twice the cores seen, marked oversubscribed.",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="Extra service setting for every run (repeatable).",
    )
    parser.add_argument("--output", default="worker_scaling_bench.json")
    args = parser.parse_args()

    cores = cores_seen()
    # A deadline far above any comparison: on a shared machine a starved worker must not
    # turn a slow verdict into a timeout (and a worker restart) in one run and not another.
    env = {"VERIFIER_MATH_TIMEOUT_S": "20"} | dict(item.split("=", 1) for item in args.env)
    counts = sweep(args.max_workers or cores, args.beyond)
    math_work = math_batches(args.math_pairs, args.math_batch, 1, args.pad_chars)
    code_work = code_batches(args.code_programs, args.code_batch, seed=1)
    units = (args.math_pairs, 2 * args.code_programs)
    print(f"{cores} cores seen; worker counts {counts}", file=sys.stderr)
    rows = []
    for workers in counts:
        row = run_config(workers, env, math_work, code_work, units, args.concurrency)
        print(
            f"  {workers} workers: math {row['math']['per_s']} pairs/s, "
            f"code {row['code']['per_s']} executions/s",
            file=sys.stderr,
        )
        rows.append(row)
    for row in rows:
        for task in ("math", "code"):
            row[task]["speedup"] = round(row[task]["per_s"] / rows[0][task]["per_s"], 2)
            row[task]["ideal_per_s"] = round(rows[0][task]["per_s"] * row["workers"], 1)
    result = {
        "machine": {
            "cores_seen": cores,
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg_at_start": os.getloadavg(),
        },
        "settings": {k: v for k, v in vars(args).items() if k != "output"} | {"env": env},
        "rows": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / args.output).write_text(json.dumps(result, indent=2) + "\n")
    print(table(result))
    print(f"\n{cores} cores seen; results in {RESULTS / args.output}")


if __name__ == "__main__":
    main()
