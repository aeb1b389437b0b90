"""Scaling benchmark: math and code scoring throughput through the gateway, 1-3 replicas.

Each configuration starts fresh replicas (one math worker and one sandbox worker each, as
a replica pinned to one core would run) behind nginx with deploy/'s gateway config, and
scores the same fixed work: math pairs from ``math_dataset`` (a fresh replica set has a
cold verdict cache, so nothing is answered from a cache) and unique small Python programs
with two tests each. A run with one replica and no gateway measures the gateway's cost.

CPU time of every process tree (replicas with their math and sandbox workers, nginx, this
load generator) is read from /proc during each measurement, which shows where the cores
go and so where the next bottleneck is.

Writes ``benchmarks/results/replica_scaling_bench.json`` and prints a Markdown table. This is a
benchmark, not a test: absolute numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.math_dataset import build_dataset
from harness.gateway import Gateway, running_gateway
from harness.service import ServiceProcess, running_replicas

RESULTS = Path(__file__).resolve().parent / "results"
REPLICA_ENV = {"VERIFIER_MATH_WORKERS": "1", "VERIFIER_SANDBOX_WORKERS": "1"}
TICKS = os.sysconf("SC_CLK_TCK")


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


def measure(
    url: str,
    path: str,
    batches: Sequence[dict[str, Any]],
    units: int,
    concurrency: int,
    replicas: Sequence[ServiceProcess],
    gateway: Gateway | None,
) -> dict[str, Any]:
    """Throughput of one workload, and the cores each part used meanwhile."""
    roots = {f"replica{i}": r.pid() for i, r in enumerate(replicas)}
    if gateway is not None:
        roots["nginx"] = gateway.process.pid
    before = {name: tree_cpu_s(pid) for name, pid in roots.items()}
    client_before, machine_before = own_cpu_s(), machine_busy_s()
    start = time.perf_counter()
    run = asyncio.run(drive(url, path, batches, concurrency))
    wall = time.perf_counter() - start
    cores = {name: (tree_cpu_s(pid) - before[name]) / wall for name, pid in roots.items()}
    cores["load_generator"] = (own_cpu_s() - client_before) / wall
    # Busy cores of the machine that none of the above explains: other work on a shared box.
    cores["other"] = (machine_busy_s() - machine_before) / wall - sum(cores.values())
    replica_cores = sum(v for k, v in cores.items() if k.startswith("replica"))
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


@contextmanager
def replica_set(
    count: int, through_gateway: bool
) -> Iterator[tuple[str, list[ServiceProcess], Gateway | None]]:
    with running_replicas(count, REPLICA_ENV) as replicas:
        if not through_gateway:
            yield replicas[0].url, replicas, None
            return
        with running_gateway([r.port for r in replicas]) as gateway:
            yield gateway.url, replicas, gateway


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--math-pairs", type=int, default=6400)
    parser.add_argument("--math-batch", type=int, default=64)
    parser.add_argument("--code-programs", type=int, default=800)
    parser.add_argument("--code-batch", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--max-replicas", type=int, default=3)
    args = parser.parse_args()

    configs = [(1, False)] + [(n, True) for n in range(1, args.max_replicas + 1)]
    rows: list[dict[str, Any]] = []
    for seed, (count, through_gateway) in enumerate(configs):
        label = f"{count} replica{'s' if count > 1 else ''}" + (
            "" if through_gateway else " (direct, no gateway)"
        )
        print(f"{label}...", file=sys.stderr)
        math_work = math_batches(args.math_pairs, args.math_batch, seed)
        code_work = code_batches(args.code_programs, args.code_batch, seed)
        with replica_set(count, through_gateway) as (url, replicas, gateway):
            # Warm-up: connections, the first fork of each worker.
            asyncio.run(drive(url, "/score/code", code_batches(16, 8, 999 + seed), 2))
            math = measure(
                url, "/score/math", math_work, args.math_pairs, args.concurrency, replicas, gateway
            )
            code = measure(
                url,
                "/score/code",
                code_work,
                2 * args.code_programs,
                args.concurrency,
                replicas,
                gateway,
            )
        rows.append(
            {
                "config": label,
                "replicas": count,
                "gateway": through_gateway,
                "math": math,
                "code": code,
            }
        )
        print(f"  math {math['per_s']} pairs/s, code {code['per_s']} tests/s", file=sys.stderr)

    base = next(r for r in rows if r["replicas"] == 1 and r["gateway"])
    for row in rows:
        for task in ("math", "code"):
            row[task]["speedup_vs_1"] = round(row[task]["per_s"] / base[task]["per_s"], 2)
    result = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg_at_start": os.getloadavg(),
        },
        "settings": vars(args) | {"replica_env": REPLICA_ENV},
        "rows": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "replica_scaling_bench.json").write_text(json.dumps(result, indent=2) + "\n")

    print(
        f"| config | math pairs/s | ×1 | per replica-core | p50 / p99 per {args.math_batch}"
        "-pair batch | code tests/s | ×1 | per replica-core "
        "| cores busy, math / code: replicas + nginx + load gen + other |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        split = []
        for task in ("math", "code"):
            cores = row[task]["cores"]
            replicas = sum(v for k, v in cores.items() if k.startswith("replica"))
            split.append(
                f"{replicas:.2f} + {cores.get('nginx', 0):.2f} + "
                f"{cores['load_generator']:.2f} + {cores['other']:.2f}"
            )
        math, code = row["math"], row["code"]
        print(
            f"| {row['config']} | {math['per_s']} | {math['speedup_vs_1']} "
            f"| {math['per_replica_cpu_s']} | {math['p50_s']} / {math['p99_s']} s "
            f"| {code['per_s']} | {code['speedup_vs_1']} | {code['per_replica_cpu_s']} "
            f"| {split[0]} / {split[1]} |"
        )
    print(f"\n{os.cpu_count()} cores; results in {RESULTS / 'replica_scaling_bench.json'}")


if __name__ == "__main__":
    main()
