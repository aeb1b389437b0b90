"""How long a large code batch holds the service's event loop.

The workload (seeded, written here): ``--items`` completions (512) in GRPO groups of 8, one
prompt per group with a function to write and 10 to 50 asserts on it; a group's programs
are right, off by one or wrong, each with its own helper names and a reasoning block of 50
to 400 words. ``--form check`` (default) gives each prompt one HumanEval ``check(candidate)``
test holding its asserts; ``--form asserts`` one test per assert (many more sandbox jobs).

The scoring pipeline runs in this process, built as the service builds it (math workers,
sandbox, code judge, admission with no bound), and scores the batch as one request while a probe on
the same event loop sleeps 5 ms at a time. Reported: the batch's seconds, the CPU seconds of
the event loop's thread (``time.thread_time``: the sandbox's and the host's processes and
threads are not in it), and the probe's lateness (p50, p99, max): how long anything else
on the loop (``/health``, another request) would have waited. Writes
``benchmarks/results/code_loop_bench.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RESULTS = Path(__file__).resolve().parent / "results"
GROUP = 8
PROBE_S = 0.005


def workload(items: int, form: str, seed: int = 0) -> list[dict[str, Any]]:
    """``items`` code items in GRPO groups of 8 (see the module's docstring)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for prompt in range(items // GROUP):
        name = f"solve_{prompt}"
        k, c = rng.randint(2, 9), rng.randint(0, 99)
        asserts = []
        for i in range(rng.randint(10, 50)):
            xs = [rng.randint(-50, 50) for _ in range(rng.randint(1, 6))]
            want = sum(k * v + c for v in xs)
            if i % 5 == 0:
                asserts.append(f"assert abs({name}({xs!r}) - {want}) < 1e-6")
            elif i % 7 == 0:
                terms = ", ".join(str(k * v + c) for v in xs)
                asserts.append(f"assert {name}({xs!r}) == sum([{terms}])")
            else:
                asserts.append(f"assert {name}({xs!r}) == {want}")
        if form == "check":
            body = "\n".join("    " + a.replace(f"{name}(", "candidate(") for a in asserts)
            tests = [{"code": f"def check(candidate):\n{body}\n\ncheck({name})\n"}]
        else:
            tests = [{"code": a} for a in asserts]
        for sample in range(GROUP):
            helper = f"_h{rng.randint(0, 10**6)}"
            kind = rng.random()
            if kind < 0.5:
                source = (
                    f"def {helper}(v):\n    return {k} * v + {c}\n\n"
                    f"def {name}(xs):\n    return sum({helper}(v) for v in xs)\n"
                )
            elif kind < 0.8:
                source = (
                    f"def {name}(xs):\n    total = 0\n    for v in xs:\n"
                    f"        total += {k} * v + {c + sample % 2}\n    return total  # {helper}\n"
                )
            else:
                source = f"def {name}(xs):\n    return len(xs) * {c} + {rng.randint(0, 9)}\n"
            thinking = " ".join(["reasoning"] * rng.randint(50, 400))
            completion = f"<think>{thinking}</think>\n```python\n{source}```"
            out.append(
                {
                    "task": "code",
                    "language": "python",
                    "completion": completion,
                    "tests": tests,
                    "id": f"{prompt}-{sample}",
                }
            )
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(items: list[dict[str, Any]], workers: int) -> dict[str, Any]:
    from services.api.results import score_batch
    from services.composition import build_backends
    from services.contract.protocol import RewardOptions
    from services.metrics import Metrics
    from services.settings import Settings

    # Admission counts the request's work as the service does, with no bound to refuse it.
    settings = Settings(
        sandbox={"workers": workers},
        batch_timeout_s=3000,
        exploit_canary_interval_s=0,
        queued_tests_per_worker=0,
        max_queue_wait_s=0,
        max_projected_wait_s=0,
    )
    async with build_backends(settings, Metrics(), admission=True) as backends:
        scorer = backends.scorer
        # Starts the sandbox's and the host's processes before the clock does.
        await score_batch(scorer, workload(GROUP, "check", seed=99), RewardOptions().to_policy())
        late: list[float] = []
        done = False

        async def probe() -> None:
            while not done:
                sent = time.perf_counter()
                await asyncio.sleep(PROBE_S)
                late.append(time.perf_counter() - sent - PROBE_S)

        prober = asyncio.ensure_future(probe())
        started, cpu = time.perf_counter(), time.thread_time()
        response = await score_batch(scorer, items, RewardOptions().to_policy())
        seconds, loop_cpu = time.perf_counter() - started, time.thread_time() - cpu
        done = True
        await prober
    rewards = [r.reward for r in response.results if r.reward is not None]
    return {
        "seconds": round(seconds, 2),
        "loop_thread_cpu_s": round(loop_cpu, 2),
        "probe_late_ms": {
            "probes": len(late),
            "p50": round(_pct(late, 0.5) * 1e3, 1),
            "p99": round(_pct(late, 0.99) * 1e3, 1),
            "max": round(max(late) * 1e3, 1),
        },
        "statuses": dict(Counter(r.status.value for r in response.results)),
        "mean_reward": round(sum(rewards) / len(rewards), 6) if rewards else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=512)
    parser.add_argument("--form", choices=("check", "asserts"), default="check")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--label", default="", help="a name for this run in the JSON")
    parser.add_argument("--out", type=Path, default=RESULTS / "code_loop_bench.json")
    args = parser.parse_args()
    items = workload(args.items, args.form)
    load_before = os.getloadavg()
    result = asyncio.run(measure(items, args.workers))
    run = {
        "label": args.label,
        "items": len(items),
        "form": args.form,
        "asserts": sum(item["tests"][0]["code"].count("assert ") for item in items)
        if args.form == "check"
        else sum(len(item["tests"]) for item in items),
        "sandbox_workers": args.workers,
        **result,
        "machine": {
            "cpus": len(os.sched_getaffinity(0)),
            "python": platform.python_version(),
            "load_avg_before": [round(v, 2) for v in load_before],
            "load_avg_after": [round(v, 2) for v in os.getloadavg()],
        },
    }
    previous: dict[str, Any] = (
        json.loads(args.out.read_text()) if args.out.exists() else {"runs": []}
    )
    previous["runs"].append(run)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(previous, indent=2) + "\n")
    print(json.dumps(run, indent=2))
    print(args.out)


if __name__ == "__main__":
    main()
