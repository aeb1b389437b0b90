"""Timing fixed scoring work against a set of replicas, and where the cores went meanwhile.

Shared by the replica benchmarks (``replica_scaling_bench.py``: replicas behind the nginx
gateway; ``ray_bench.py``: replicas of a Ray Serve app) and ``worker_scaling_bench.py``:
the workloads (math pairs from ``math_dataset``, unique small Python programs with two
tests each), a load generator with a fixed number of requests in flight, CPU time of
process trees, of this process and of the whole machine from /proc, and the command-line
options and result fields the benchmarks have in common.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from benchmarks.math_dataset import build_dataset

TICKS = os.sysconf("SC_CLK_TCK")
TASKS = ("math", "code")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
            tree.setdefault(ppid, []).append(int(name))
    return tree


def tree_cpu_s(root: int) -> float:
    """CPU seconds of ``root`` and its descendants, reaped ones included (cutime/cstime)."""
    tree, stack, total = _children(), [root], 0
    while stack:
        pid = stack.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
        stack.extend(tree.get(pid, []))
    return total / TICKS


def machine_busy_s() -> float:
    """Busy CPU seconds of the whole machine (all processes, ours or not), from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / TICKS


def own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def math_batches(pairs: int, batch: int, seed: int) -> list[dict[str, Any]]:
    data = build_dataset(n_references=-(-pairs // 8), group_size=8, seed=seed)[:pairs]
    items = [{"reference": p.reference, "completion": p.completion} for p in data]
    return [{"items": items[i : i + batch]} for i in range(0, len(items), batch)]


def code_batches(programs: int, batch: int, seed: int) -> list[dict[str, Any]]:
    """Unique programs (no two runs are alike), each with two tests that pass."""
    items = []
    for index in range(programs):
        k, c = seed * 100_003 + index, index % 97
        source = f"```python\ndef f(x):\n    return x * {k} + {c}\n```"
        tests = [{"code": f"assert f({x}) == {x * k + c}"} for x in (3, 11)]
        items.append({"language": "python", "completion": source, "tests": tests})
    return [{"items": items[i : i + batch]} for i in range(0, len(items), batch)]


async def drive(
    url: str,
    path: str,
    batches: Sequence[dict[str, Any]],
    concurrency: int,
) -> dict[str, Any]:
    """Send every batch with ``concurrency`` requests in flight; per-request latencies."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for body in batches:
        queue.put_nowait(body)
    latencies: list[float] = []
    bad: list[str] = []

    async def worker(http: httpx.AsyncClient) -> None:
        while not queue.empty():
            body = queue.get_nowait()
            start = time.perf_counter()
            response = await http.post(path, json=body)
            latencies.append(time.perf_counter() - start)
            if response.status_code != 200:
                bad.append(f"HTTP {response.status_code}")
                continue
            statuses = {r["status"] for r in response.json()["results"]}
            if statuses - {"ok"}:
                bad.append(f"statuses {statuses}")

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as http:
        await asyncio.gather(*(worker(http) for _ in range(concurrency)))
    latencies.sort()
    return {
        "requests": len(latencies),
        "errors": bad[:5],
        "p50_s": round(latencies[len(latencies) // 2], 4),
        "p99_s": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 4),
    }


def workload_parser(
    description: str, math_pairs: int, code_programs: int, concurrency: int
) -> argparse.ArgumentParser:
    """The options every replica benchmark takes, with this benchmark's defaults."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--math-pairs", type=int, default=math_pairs)
    parser.add_argument("--math-batch", type=int, default=64)
    parser.add_argument("--code-programs", type=int, default=code_programs)
    parser.add_argument("--code-batch", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=concurrency)
    return parser


def measure(
    url: str,
    path: str,
    batches: Sequence[dict[str, Any]],
    units: int,
    concurrency: int,
    roots: Mapping[str, int],
) -> dict[str, Any]:
    """Throughput of one workload, and the cores each part used meanwhile: every process
    tree of ``roots`` (name -> pid; replicas are named ``replica<n>``), this load generator,
    and the rest of the machine (``other``)."""
    before = {name: tree_cpu_s(pid) for name, pid in roots.items()}
    client_before, machine_before = own_cpu_s(), machine_busy_s()
    start = time.perf_counter()
    run = asyncio.run(drive(url, path, batches, concurrency))
    wall = time.perf_counter() - start
    cores = {name: (tree_cpu_s(pid) - before[name]) / wall for name, pid in roots.items()}
    cores["load_generator"] = (own_cpu_s() - client_before) / wall
    # Busy cores of the machine that none of the above explains: other work on a shared box
    # (and, under Ray, its raylets, GCS, proxy and controller).
    cores["other"] = (machine_busy_s() - machine_before) / wall - sum(cores.values())
    replica_cores = replicas_cores(cores)
    return {
        **run,
        "wall_s": round(wall, 3),
        "per_s": round(units / wall, 1),
        # Work per CPU-second the replicas got: flat across configurations means throughput
        # is bounded by the cores the replicas receive, not by the gateway or balancing.
        "per_replica_cpu_s": round(units / (replica_cores * wall), 1) if replica_cores else None,
        "cores": {name: round(value, 2) for name, value in cores.items()},
        "cores_busy": round(sum(cores.values()), 2),
    }


def replicas_cores(cores: Mapping[str, float]) -> float:
    """The cores all replicas of a measurement used together."""
    return sum(value for name, value in cores.items() if name.startswith("replica"))


def replica_roots(pids: Sequence[int]) -> dict[str, int]:
    return {f"replica{index}": pid for index, pid in enumerate(pids)}


def workload(
    url: str, roots: Mapping[str, int], args: argparse.Namespace, seed: int
) -> dict[str, Any]:
    """Warm-up, then the math and the code workload; a new ``seed`` for each configuration
    (a fresh replica set's verdict cache is cold, so nothing is answered from a cache)."""
    replicas = sum(1 for name in roots if name.startswith("replica"))
    # Warm-up: connections, the first fork of each replica's workers.
    asyncio.run(drive(url, "/score/code", code_batches(8 * replicas, 4, 900 + seed), replicas))
    math = measure(
        url,
        "/score/math",
        math_batches(args.math_pairs, args.math_batch, seed),
        args.math_pairs,
        args.concurrency,
        roots,
    )
    code = measure(
        url,
        "/score/code",
        code_batches(args.code_programs, args.code_batch, seed),
        2 * args.code_programs,
        args.concurrency,
        roots,
    )
    print(f"  math {math['per_s']} pairs/s, code {code['per_s']} tests/s", file=sys.stderr)
    return {"math": math, "code": code}


def add_speedups(rows: Sequence[dict[str, Any]], base: Mapping[str, Any]) -> None:
    """Each row's throughput as a multiple of ``base``'s (``speedup_vs_1``)."""
    for row in rows:
        for task in TASKS:
            row[task]["speedup_vs_1"] = round(row[task]["per_s"] / base[task]["per_s"], 2)


def machine(loadavg_at_start: tuple[float, float, float]) -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "loadavg_at_start": loadavg_at_start,
    }


def cores_split(row: Mapping[str, Any], names: Sequence[str]) -> str:
    """Where the cores went, math / code: the cores of each of ``names`` ("replicas": all
    replicas together; 0 for a part not measured in this row), joined with " + "."""
    parts = []
    for task in TASKS:
        cores = row[task]["cores"]
        values = [
            replicas_cores(cores) if name == "replicas" else cores.get(name, 0.0) for name in names
        ]
        parts.append(" + ".join(f"{value:.2f}" for value in values))
    return " / ".join(parts)
