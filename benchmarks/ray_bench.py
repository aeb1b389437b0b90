"""Ray Serve benchmark: math and code throughput through Serve's proxy with 1, 2, 3 replicas.

One simulated Ray cluster (three raylets of one CPU each, on this machine: they share its
cores) and the verifier deployed with deploy/ray/serve.yaml as harness.ray_cluster adapts
it for tests: half a CPU per replica (one math and one sandbox worker), at most one replica
per node. The same run deploys the app with a fixed 1, 2 and then 3 replicas (fresh
replicas each time: the app is deleted in between) and scores the same kind of fixed work,
through the one HTTP proxy on the head node: math pairs from ``math_dataset`` and unique
small Python programs with two tests each (a new seed per count, so no verdict comes from
a replica's cache).

CPU time of each replica's process tree (its math and sandbox workers included) and of the
whole machine is read from /proc during each measurement: on a machine with fewer cores
than replicas, throughput follows the cores the replicas get, not their number.

Writes ``benchmarks/results/ray_bench.json`` and prints a Markdown table. This is a
benchmark, not a test: absolute numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.replica_scaling_bench import (
    code_batches,
    drive,
    machine_busy_s,
    math_batches,
    own_cpu_s,
    tree_cpu_s,
)
from harness.ray_cluster import (
    delete_app,
    deploy,
    running_replicas,
    serve_config,
    simulated_cluster,
    wait_for_replicas,
)
from harness.service import running_replicas as running_services
from services.launcher import free_port

RESULTS = Path(__file__).resolve().parent / "results"
REPLICA_CPUS = 0.5
NODES = 3
REPLICA_ENV = {"VERIFIER_MATH_TIMEOUT_S": "30"}
# What a Serve replica of REPLICA_CPUS sizes itself to.
DIRECT_ENV = {**REPLICA_ENV, "VERIFIER_MATH_WORKERS": "1", "VERIFIER_SANDBOX_WORKERS": "1"}


def deployment(replicas: int) -> dict[str, Any]:
    # A fixed count as Serve honours it over the code's autoscaling: min = max. (A config's
    # num_replicas does not switch off the autoscaling_config the deployment's code sets.)
    fixed = {"min_replicas": replicas, "max_replicas": replicas, "target_ongoing_requests": 2}
    return {
        "autoscaling_config": fixed,
        "ray_actor_options": {"num_cpus": REPLICA_CPUS},
        "max_replicas_per_node": 1,
    }


def measure(
    url: str,
    path: str,
    batches: Sequence[dict[str, Any]],
    units: int,
    concurrency: int,
    pids: Sequence[int],
) -> dict[str, Any]:
    """Throughput of one workload, and the cores the replicas (``pids``, with their
    workers) and the machine used."""
    before = sum(tree_cpu_s(pid) for pid in pids)
    client_before, machine_before = own_cpu_s(), machine_busy_s()
    start = time.perf_counter()
    run = asyncio.run(drive(url, path, batches, concurrency))
    wall = time.perf_counter() - start
    replica_cores = (sum(tree_cpu_s(pid) for pid in pids) - before) / wall
    return {
        **run,
        "wall_s": round(wall, 3),
        "per_s": round(units / wall, 1),
        "per_replica_cpu_s": round(units / (replica_cores * wall), 1) if replica_cores else None,
        "cores": {
            "replicas": round(replica_cores, 2),
            "load_generator": round((own_cpu_s() - client_before) / wall, 2),
            # Everything else: Ray's raylets, GCS, proxy and controller, and other jobs.
            "rest": round((machine_busy_s() - machine_before) / wall - replica_cores, 2),
        },
    }


def workload(url: str, pids: Sequence[int], args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """Warm-up, then the math and the code workload; a new ``seed`` for each configuration."""
    # Warm-up: connections, the first fork of each replica's workers.
    asyncio.run(drive(url, "/score/code", code_batches(8 * len(pids), 4, 900 + seed), len(pids)))
    math = measure(
        url,
        "/score/math",
        math_batches(args.math_pairs, args.math_batch, seed),
        args.math_pairs,
        args.concurrency,
        pids,
    )
    code = measure(
        url,
        "/score/code",
        code_batches(args.code_programs, args.code_batch, seed),
        2 * args.code_programs,
        args.concurrency,
        pids,
    )
    print(f"  math {math['per_s']} pairs/s, code {code['per_s']} tests/s", file=sys.stderr)
    return {"math": math, "code": code}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--math-pairs", type=int, default=2560)
    parser.add_argument("--math-batch", type=int, default=64)
    parser.add_argument("--code-programs", type=int, default=320)
    parser.add_argument("--code-batch", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=6)
    args = parser.parse_args()

    rows: list[dict[str, Any]] = []
    loadavg_at_start = os.getloadavg()
    # The same workload on one plain replica (uvicorn, no Ray) sized like a Serve replica:
    # what Ray's proxy and replica wrapper cost, on this machine and this run.
    print("1 replica without Ray...", file=sys.stderr)
    with running_services(1, DIRECT_ENV) as (service,):
        pid = service.pid()
        rows.append(
            {"replicas": 1, "nodes": None, "ray": False, **workload(service.url, [pid], args, 0)}
        )
    with simulated_cluster(nodes=NODES, node_cpus=1) as cluster:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        for count in range(1, NODES + 1):
            print(f"{count} replica(s)...", file=sys.stderr)
            if count > 1:
                delete_app(timeout_s=120)
            deploy(serve_config(port, deployment(count), REPLICA_ENV), cluster.address)
            wait_for_replicas(count, timeout_s=300)
            replicas = running_replicas()
            pids = [r.pid for r in replicas if r.pid is not None]
            nodes = len({r.node_id for r in replicas})
            rows.append(
                {"replicas": count, "nodes": nodes, "ray": True, **workload(url, pids, args, count)}
            )

    base = next(row for row in rows if row["ray"] and row["replicas"] == 1)
    for row in rows:
        for task in ("math", "code"):
            row[task]["speedup_vs_1"] = round(row[task]["per_s"] / base[task]["per_s"], 2)
    result = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg_at_start": loadavg_at_start,
            "note": "simulated Ray nodes share this machine's cores",
        },
        "settings": vars(args)
        | {
            "nodes": NODES,
            "node_cpus": 1,
            "replica_cpus": REPLICA_CPUS,
            "replica_env": REPLICA_ENV,
        },
        "rows": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ray_bench.json").write_text(json.dumps(result, indent=2) + "\n")

    print(
        "| replicas (nodes) | math pairs/s | ×1 | per replica-core | code tests/s | ×1 "
        "| per replica-core | cores busy, math / code: replicas + load gen + rest |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        math, code = row["math"], row["code"]
        split = " / ".join(
            f"{c['replicas']:.2f} + {c['load_generator']:.2f} + {c['rest']:.2f}"
            for c in (math["cores"], code["cores"])
        )
        label = f"{row['replicas']} ({row['nodes']})" if row["ray"] else "1, no Ray"
        print(
            f"| {label} | {math['per_s']} | {math['speedup_vs_1']} "
            f"| {math['per_replica_cpu_s']} | {code['per_s']} | {code['speedup_vs_1']} "
            f"| {code['per_replica_cpu_s']} | {split} |"
        )


if __name__ == "__main__":
    main()
