"""Ray Serve benchmark: math and code throughput through Serve's proxy with 1, 2, 3 replicas.

One simulated Ray cluster (three raylets of one CPU each, on this machine: they share its
cores) and the verifier deployed with deploy/ray/serve.yaml as harness.ray_cluster adapts
it for tests: half a CPU per replica (one math and one sandbox worker), at most one replica
per node. The same run deploys the app with a fixed 1, 2 and then 3 replicas (fresh
replicas each time: the app is deleted in between) and scores the same kind of fixed work,
through the one HTTP proxy on the head node: math pairs from ``math_dataset`` and unique
small Python programs with two tests each (a new seed per count, so no verdict comes from
a replica's cache).

CPU time of each replica's process tree (its math and sandbox workers included), of this
load generator and of the whole machine is read from /proc during each measurement
(``benchmarks/replica_timing.py``, shared with ``replica_scaling_bench.py``): on a
machine with fewer cores than replicas, throughput follows the cores the replicas get, not
their number.

Writes ``benchmarks/results/ray_bench.json`` and prints a Markdown table. This is a
benchmark, not a test: absolute numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import replica_timing as timing
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


def main() -> None:
    args = timing.workload_parser(
        __doc__.splitlines()[0], math_pairs=2560, code_programs=320, concurrency=6
    ).parse_args()

    rows: list[dict[str, Any]] = []
    loadavg_at_start = os.getloadavg()
    # The same workload on one plain replica (uvicorn, no Ray) sized like a Serve replica:
    # what Ray's proxy and replica wrapper cost, on this machine and this run.
    print("1 replica without Ray...", file=sys.stderr)
    with running_services(1, DIRECT_ENV) as (service,):
        measured = timing.workload(service.url, timing.replica_roots([service.pid()]), args, 0)
        rows.append({"replicas": 1, "nodes": None, "ray": False, **measured})
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
            measured = timing.workload(url, timing.replica_roots(pids), args, count)
            rows.append({"replicas": count, "nodes": nodes, "ray": True, **measured})

    timing.add_speedups(rows, next(row for row in rows if row["ray"] and row["replicas"] == 1))
    result = {
        "machine": timing.machine(loadavg_at_start)
        | {"note": "simulated Ray nodes share this machine's cores"},
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
        "| per replica-core | cores busy, math / code: replicas + load gen + other |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        math, code = row["math"], row["code"]
        label = f"{row['replicas']} ({row['nodes']})" if row["ray"] else "1, no Ray"
        print(
            f"| {label} | {math['per_s']} | {math['speedup_vs_1']} "
            f"| {math['per_replica_cpu_s']} | {code['per_s']} | {code['speedup_vs_1']} "
            f"| {code['per_replica_cpu_s']} "
            f"| {timing.cores_split(row, ('replicas', 'load_generator', 'other'))} |"
        )


if __name__ == "__main__":
    main()
