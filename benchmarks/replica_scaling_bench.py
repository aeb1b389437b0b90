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

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import replica_timing as timing
from harness.gateway import Gateway, running_gateway
from harness.service import ServiceProcess, running_replicas

RESULTS = Path(__file__).resolve().parent / "results"
REPLICA_ENV = {"VERIFIER_MATH_WORKERS": "1", "VERIFIER_SANDBOX_WORKERS": "1"}


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
    parser = timing.workload_parser(
        __doc__.splitlines()[0], math_pairs=6400, code_programs=800, concurrency=8
    )
    parser.add_argument("--max-replicas", type=int, default=3)
    args = parser.parse_args()

    loadavg_at_start = os.getloadavg()
    configs = [(1, False)] + [(n, True) for n in range(1, args.max_replicas + 1)]
    rows: list[dict[str, Any]] = []
    for seed, (count, through_gateway) in enumerate(configs):
        label = f"{count} replica{'s' if count > 1 else ''}" + (
            "" if through_gateway else " (direct, no gateway)"
        )
        print(f"{label}...", file=sys.stderr)
        with replica_set(count, through_gateway) as (url, replicas, gateway):
            roots = timing.replica_roots([replica.pid() for replica in replicas])
            if gateway is not None:
                roots["nginx"] = gateway.process.pid
            measured = timing.workload(url, roots, args, seed)
        rows.append({"config": label, "replicas": count, "gateway": through_gateway, **measured})

    timing.add_speedups(rows, next(r for r in rows if r["replicas"] == 1 and r["gateway"]))
    result = {
        "machine": timing.machine(loadavg_at_start),
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
        math, code = row["math"], row["code"]
        print(
            f"| {row['config']} | {math['per_s']} | {math['speedup_vs_1']} "
            f"| {math['per_replica_cpu_s']} | {math['p50_s']} / {math['p99_s']} s "
            f"| {code['per_s']} | {code['speedup_vs_1']} | {code['per_replica_cpu_s']} "
            f"| {timing.cores_split(row, ('replicas', 'nginx', 'load_generator', 'other'))} |"
        )
    print(f"\n{os.cpu_count()} cores; results in {RESULTS / 'replica_scaling_bench.json'}")


if __name__ == "__main__":
    main()
