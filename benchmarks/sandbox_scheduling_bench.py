"""Head-of-line blocking in the sandbox: what each remedy buys, measured in one run.

On the real bwrap sandbox, in-process (no HTTP), with the workloads written here:

* **fair vs FIFO**: a request of 8 spinning programs (one test each, timeout 1 s) and,
  50 ms later, a request of 4 short programs. FIFO is every job in one flow (what a plain
  thread pool does); fair is one flow per request (``sandbox/scheduler.py``: the flow with
  the fewest jobs running first). Reported:
  the short request's latency.
* **CPU-time vs wall-clock verdict**: 12 honest programs that need 0.3 s of CPU, timeout
  0.5 s, while 0, 2 or 4 spinning processes (each in a session of its own, like the
  sandbox's jobs) share the cores. Wall: the job is killed at 0.5 s of wall-clock time;
  CPU: at 0.5 s of CPU, with a wall-clock backstop of 1.5 s. Reported: how many passed.
* **workers vs cores**: 4 sleeping programs (wall-clock bound: killed at the 3 s
  backstop), 8 programs needing 0.3 s of CPU and 32 fast ones, in one request, on
  1x, 2x and 4x as many workers as cores. Reported: time to score, honest programs passed.

Writes ``benchmarks/results/sandbox_scheduling_bench.json`` and prints tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Language, Limits, Sandbox, SandboxConfig, TestCase
from sandbox.scheduler import current_flow

RESULTS = Path(__file__).resolve().parent / "results"
SPIN = "while True:\n    pass\n"
SLEEP = "import time\ntime.sleep(30)\n"
FAST = "x = sum(range(1000))\n"
PRINTS = TestCase(code="print('ok')", expected="ok")


def _cpu(seconds: float) -> str:
    return (
        f"import time\nend = time.process_time() + {seconds}\n"
        "while time.process_time() < end:\n    pass\n"
    )


def cpu_limits(timeout_s: float) -> Limits:
    return Limits(cpu_s=timeout_s, wall_s=3 * timeout_s)


async def _request(
    sandbox: Sandbox, programs: list[str], limits: Limits, flow: object
) -> tuple[float, int]:
    """One request's programs, one test each; (seconds, tests passed)."""
    current_flow.set(flow)
    started = time.monotonic()
    outcomes = await asyncio.gather(
        *(sandbox.run_tests(Language.PYTHON, p, [PRINTS], limits) for p in programs)
    )
    return time.monotonic() - started, sum(o[0].passed for o in outcomes)


def head_of_line(sandbox: Sandbox, repeats: int) -> dict[str, Any]:
    async def once(fair: bool) -> float:
        shared = object()
        spinners = asyncio.ensure_future(
            _request(sandbox, [SPIN] * 8, cpu_limits(1.0), object() if fair else shared)
        )
        await asyncio.sleep(0.05)
        short, _ = await _request(
            sandbox, [FAST] * 4, cpu_limits(1.0), object() if fair else shared
        )
        await spinners
        return short

    out: dict[str, Any] = {}
    for mode, fair in (("fifo", False), ("fair", True)):
        runs = [asyncio.run(once(fair)) for _ in range(repeats)]
        out[mode] = {"short_request_s": round(statistics.median(runs), 3), "runs": runs}
    return out


@contextmanager
def hogs(count: int) -> Iterator[None]:
    """``count`` spinning processes, each in a session (autogroup) of its own."""
    procs = [
        subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True) for _ in range(count)
    ]
    try:
        time.sleep(0.2)
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def verdicts(sandbox: Sandbox, programs: int) -> list[dict[str, Any]]:
    honest = [_cpu(0.3)] * programs
    rows = []
    for count in (0, 2, 4):
        for clock, limits in (("wall", Limits(wall_s=0.5)), ("cpu", cpu_limits(0.5))):
            # A fresh program text per run: the same text would be the same work.
            texts = [f"{p}# {clock}{count}-{i}\n" for i, p in enumerate(honest)]
            with hogs(count):
                seconds, passed = asyncio.run(_request(sandbox, texts, limits, object()))
            rows.append(
                {
                    "host_spinners": count,
                    "verdict": clock,
                    "passed": passed,
                    "of": programs,
                    "seconds": round(seconds, 3),
                }
            )
    return rows


def workers_vs_cores(cores: int, factors: list[int]) -> list[dict[str, Any]]:
    programs = [SLEEP] * 4 + [_cpu(0.3)] * 8 + [FAST] * 32
    rows = []
    for factor in factors:
        with Sandbox(SandboxConfig(workers=cores * factor)) as sandbox:
            asyncio.run(sandbox.warmup())
            texts = [f"{p}# {factor}-{i}\n" for i, p in enumerate(programs)]
            seconds, passed = asyncio.run(_request(sandbox, texts, cpu_limits(1.0), object()))
        rows.append(
            {
                "workers": cores * factor,
                "seconds": round(seconds, 3),
                "honest_passed": passed,
                "honest": len(programs) - 4,
            }
        )
    return rows


def tables(report: dict[str, Any]) -> str:
    hol = report["head_of_line"]
    lines = [
        "| scheduling | short request's latency, s (median) |",
        "|---|---|",
        f"| FIFO (one queue) | {hol['fifo']['short_request_s']} |",
        f"| fair (fewest running first, per request) | {hol['fair']['short_request_s']} |",
        "",
        "| spinners on the host | verdict | honest programs passed | seconds |",
        "|---|---|---|---|",
    ]
    for row in report["verdicts"]:
        lines.append(
            f"| {row['host_spinners']} | {row['verdict']} | {row['passed']}/{row['of']} | "
            f"{row['seconds']} |"
        )
    lines += ["", "| workers | seconds | honest programs passed |", "|---|---|---|"]
    for row in report["workers_vs_cores"]:
        lines.append(
            f"| {row['workers']} | {row['seconds']} | {row['honest_passed']}/{row['honest']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--honest", type=int, default=12, help="programs per verdict row")
    parser.add_argument("--factors", default="1,2,4", help="workers per core, comma-separated")
    args = parser.parse_args()
    report: dict[str, Any] = {
        "cores": args.cores,
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    with Sandbox(SandboxConfig(workers=args.cores)) as sandbox:
        asyncio.run(sandbox.warmup())
        report["head_of_line"] = head_of_line(sandbox, args.repeats)
        report["verdicts"] = verdicts(sandbox, args.honest)
    factors = [int(f) for f in args.factors.split(",")]
    report["workers_vs_cores"] = workers_vs_cores(args.cores, factors)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "sandbox_scheduling_bench.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(tables(report))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
