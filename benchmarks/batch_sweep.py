"""Math scoring throughput against batch size: one client sends ``/score/math`` batches of
each size back to back, as a trainer's reward step would, for a fixed time per size.

Answers are unique per run and per item (a nonce in every number), so the verdict cache
never answers for the checker; a quarter need the symbolic stage.
Writes ``benchmarks/results/batch_sweep.json`` and prints a Markdown table.
Usage: ``python benchmarks/batch_sweep.py [--sizes 1,4,16,64,256,1024] [--seconds 8]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load_test import Workload, percentile
from harness.service import running_service

RESULTS = Path(__file__).resolve().parent / "results"


def sweep(url: str, sizes: list[int], seconds: float) -> list[dict[str, Any]]:
    rows = []
    serial = int(time.time())  # differs between runs: nothing is cached from the last one
    with httpx.Client(base_url=url, timeout=300) as client:
        for size in sizes:
            latencies: list[float] = []
            items_done = 0
            started = time.monotonic()
            while time.monotonic() - started < seconds or not latencies:
                serial += 1
                items = [Workload._math(serial, i) for i in range(size)]
                sent = time.monotonic()
                response = client.post("/score/math", json={"items": items})
                response.raise_for_status()
                latencies.append(time.monotonic() - sent)
                items_done += len(response.json()["results"])
            wall = time.monotonic() - started
            rows.append(
                {
                    "batch_size": size,
                    "requests": len(latencies),
                    "items": items_done,
                    "items_per_s": round(items_done / wall, 1),
                    "latency_p50_ms": round(1000 * (percentile(latencies, 0.5) or 0), 1),
                    "latency_p99_ms": round(1000 * (percentile(latencies, 0.99) or 0), 1),
                }
            )
            print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,4,16,64,256,1024")
    parser.add_argument("--seconds", type=float, default=8.0, help="time spent per batch size")
    parser.add_argument("--out", type=Path, default=RESULTS / "batch_sweep.json")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    load_before = os.getloadavg()
    with running_service() as url:
        rows = sweep(url, sizes, args.seconds)
    report = {
        "benchmark": "math /score/math throughput vs batch size (1 client, sequential)",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg_at_start": [round(x, 2) for x in load_before],
        },
        "settings": {"seconds_per_size": args.seconds, "sizes": sizes},
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print("| batch size | items/s | p50 ms | p99 ms |\n|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['batch_size']} | {row['items_per_s']:g} | {row['latency_p50_ms']:g} | "
            f"{row['latency_p99_ms']:g} |"
        )


if __name__ == "__main__":
    main()
