"""Sustained-load test: many concurrent clients send a mix of math and code requests (and
rubric requests when a verifier URL is given) for a fixed duration, at each concurrency.

Reports per concurrency level: requests/s, items/s, p50/p95/p99 latency per task, HTTP
status counts, item status counts, client-side errors, 5xx and lost items (an item is lost
when its request got no 200, or the 200 does not carry a result with its index and id). A
429 is backpressure, not a loss: the client retries after its ``Retry-After``, as the
trainer's client does, and the 429s are counted apart.
Loopback only, bounded in time: each level runs ``--duration`` seconds, then in-flight
requests finish (at most ``--timeout`` seconds more).

Writes ``benchmarks/results/load_test.json`` and prints a Markdown table.
Usage: ``python benchmarks/load_test.py [--duration 60] [--concurrency 4,16,64]
[--url http://127.0.0.1:8000] [--verifier-url http://127.0.0.1:9000]``.
Without ``--url`` a service is started here on a free loopback port.

``--scenario grpo``: ``--clients`` (16) clients send GRPO-like batches, first math only,
then with a quarter of the requests code batches of four programs, one of which spins
(a program text of its own per request, as a policy's spinners differ); a 429 is retried
after its ``Retry-After`` (latency per attempt and end to end are both reported); then
the same mixed load through the trainer's own client (``trainer/service_client.py``),
which must lose nothing. Writes ``benchmarks/results/load_test_grpo.json``. Each phase
also reports, from the service's ``/metrics`` before and after it, how long jobs and
requests waited in each backend's queue for a worker (``verifier_queue_wait_seconds``,
``verifier_request_queue_wait_seconds``): how many waited past 3 s, and the p50 and p99
estimated from the histogram's buckets.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.service import running_service

RESULTS = Path(__file__).resolve().parent / "results"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
# Issue #25: no request waits past this in a queue.
WAIT_BOUND_S = 3.0
# The queue-wait histograms, by what one observation is.
WAIT_HISTOGRAMS = {
    "jobs": "verifier_queue_wait_seconds",
    "requests": "verifier_request_queue_wait_seconds",
}


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


class Workload:
    """Request bodies: unique math answers (so the verdict cache does not flatter us),
    small Python programs with passing and failing tests, and optional rubric items."""

    def __init__(self, math_batch: int, code_batch: int, rubric: bool) -> None:
        self.math_batch = math_batch
        self.code_batch = code_batch
        self.rubric = rubric
        self._serial = itertools.count()
        # Three math requests per code request (GRPO math runs dominate), one rubric in 8.
        self._tasks = itertools.cycle(
            ["math", "math", "code", "math", "math", "math", "code", "rubric" if rubric else "math"]
        )

    def next(self) -> tuple[str, list[dict[str, Any]]]:
        task = next(self._tasks)
        n = next(self._serial)
        if task == "math":
            return task, [self._math(n, i) for i in range(self.math_batch)]
        if task == "code":
            return task, [self._code(n, i) for i in range(self.code_batch)]
        return task, [self._rubric(n, i) for i in range(4)]

    @staticmethod
    def _math(n: int, i: int) -> dict[str, Any]:
        k = n * 1000 + i + 1
        kind = i % 4
        if kind == 0:  # symbolic: a radical against its rationalised form
            completion = f"\\boxed{{\\frac{{{k}}}{{\\sqrt{{2}}}}}}"
            reference = f"\\frac{{{k}\\sqrt{{2}}}}{{2}}"
        elif kind == 1:  # numeric, correct
            completion, reference = f"The answer is {k}.", str(k)
        elif kind == 2:  # wrong
            completion, reference = f"#### {k + 1}", str(k)
        else:  # no extractable answer
            completion, reference = "I could not finish this one, sorry about that.", str(k)
        return {"task": "math", "id": f"m{n}-{i}", "completion": completion, "reference": reference}

    @staticmethod
    def _code(n: int, i: int) -> dict[str, Any]:
        wrong = i % 3 == 2
        body = f"def f(x):\n    return x * {n % 7 + 1}{' + 1' if wrong else ''}"
        tests = [{"code": f"assert f({j}) == {j * (n % 7 + 1)}"} for j in range(3)]
        return {
            "task": "code",
            "id": f"c{n}-{i}",
            "language": "python",
            "completion": f"```python\n{body}\n```",
            "tests": tests,
        }

    @staticmethod
    def _rubric(n: int, i: int) -> dict[str, Any]:
        return {
            "task": "rubric",
            "id": f"r{n}-{i}",
            "prompt": "Why is the sky blue?",
            "completion": "Rayleigh scattering favours short wavelengths.",
            "reference": 0.8,
        }


class GrpoWorkload(Workload):
    """Math batches; with ``code``, every fourth request is a code batch of four programs,
    one of which spins (five tests, the default 1 s timeout)."""

    def __init__(self, math_batch: int, code: bool) -> None:
        super().__init__(math_batch, 3, rubric=False)
        self._tasks = itertools.cycle(["math", "math", "code", "math"] if code else ["math"])

    def next(self) -> tuple[str, list[dict[str, Any]]]:
        task, items = super().next()
        if task == "code":
            n = int(items[0]["id"].split("-")[0][1:])
            items.append(self._spinner(n))
        return task, items

    @staticmethod
    def _spinner(n: int) -> dict[str, Any]:
        body = f"def f(x):\n    while True:  # {n}\n        pass"
        return {
            "task": "code",
            "id": f"c{n}-3",
            "language": "python",
            "completion": f"```python\n{body}\n```",
            "tests": [{"code": f"assert f({j}) == {j}"} for j in range(5)],
        }


@dataclass
class Level:
    concurrency: int
    latencies: dict[str, list[float]] = field(default_factory=dict)
    # From first send to a 200, waits after 429s included.
    end_to_end: dict[str, list[float]] = field(default_factory=dict)
    refused: Counter[str] = field(default_factory=Counter)
    http: Counter[str] = field(default_factory=Counter)
    items: dict[str, Counter[str]] = field(default_factory=dict)
    client_errors: Counter[str] = field(default_factory=Counter)
    sent_items: int = 0
    scored_items: int = 0
    lost_items: int = 0
    requests: int = 0

    def record(
        self,
        task: str,
        items: list[dict[str, Any]],
        seconds: float,
        response: httpx.Response | None,
        error: str | None,
    ) -> None:
        self.requests += 1
        self.sent_items += len(items)
        if response is None:
            self.client_errors[error or "unknown"] += 1
            self.lost_items += len(items)
            return
        self.http[str(response.status_code)] += 1
        if response.status_code != 200:
            self.lost_items += len(items)
            return
        results = response.json()["results"]
        expected = [(i, item["id"]) for i, item in enumerate(items)]
        got = [(r["index"], r["id"]) for r in results]
        if got != expected:
            self.lost_items += len(items) - len(set(got) & set(expected))
        self.scored_items += len(results)
        self.latencies.setdefault(task, []).append(seconds)
        statuses = self.items.setdefault(task, Counter())
        statuses.update(r["status"] for r in results)

    def summary(self, wall_s: float) -> dict[str, Any]:
        return {
            "concurrency": self.concurrency,
            "wall_s": round(wall_s, 2),
            "requests": self.requests,
            "requests_per_s": round(self.requests / wall_s, 2),
            "items_per_s": round(self.scored_items / wall_s, 1),
            "items_sent": self.sent_items,
            "items_scored": self.scored_items,
            "lost_items": self.lost_items,
            "http_5xx": sum(n for code, n in self.http.items() if code.startswith("5")),
            "http_status": dict(self.http),
            "client_errors": dict(self.client_errors),
            "item_status": {task: dict(c) for task, c in self.items.items()},
            "latency_ms": _percentiles(self.latencies),
            "http_429_by_task": dict(self.refused),
            "end_to_end_ms": _percentiles(self.end_to_end),
        }


def _percentiles(latencies: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        task: {
            name: round(1000 * (percentile(values, q) or 0.0), 1)
            for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        }
        | {"requests": len(values)}
        for task, values in sorted(latencies.items())
    }


async def run_level(
    url: str,
    concurrency: int,
    duration_s: float,
    timeout_s: float,
    workload: Workload,
    retry_busy: bool = False,
) -> dict[str, Any]:
    """``concurrency`` clients for ``duration_s``; with ``retry_busy`` a 429 is retried
    after its Retry-After until the batch is scored (latency is then per attempt, and end
    to end in ``end_to_end_ms``)."""
    level = Level(concurrency)
    stop_at = time.monotonic() + duration_s
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=timeout_s, limits=limits) as http:

        async def client() -> None:
            while time.monotonic() < stop_at:
                task, items = workload.next()
                first_sent = time.monotonic()
                while True:
                    started = time.monotonic()
                    try:
                        response = await http.post("/score", json={"items": items})
                    except httpx.HTTPError as exc:
                        level.record(
                            task, items, time.monotonic() - started, None, type(exc).__name__
                        )
                        break
                    if retry_busy and response.status_code == 429:
                        level.refused[task] += 1
                        await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
                        continue
                    level.record(task, items, time.monotonic() - started, response, None)
                    level.end_to_end.setdefault(task, []).append(time.monotonic() - first_sent)
                    break

        started = time.monotonic()
        await asyncio.gather(*(client() for _ in range(concurrency)))
        return level.summary(time.monotonic() - started)


# Per histogram, per backend: the cumulative count at each bucket's upper bound.
Buckets = dict[str, dict[str, dict[float, float]]]


def wait_buckets(metrics_text: str) -> Buckets:
    """The queue-wait histograms' cumulative bucket counts in a /metrics page."""
    wanted = set(WAIT_HISTOGRAMS.values())
    found: Buckets = {}
    for family in text_string_to_metric_families(metrics_text):
        if family.name not in wanted:
            continue
        for sample in family.samples:
            if sample.name.endswith("_bucket"):
                backend = found.setdefault(family.name, {}).setdefault(sample.labels["backend"], {})
                backend[float(sample.labels["le"])] = sample.value
    return found


def histogram_quantile(q: float, buckets: dict[float, float]) -> float | None:
    """Prometheus's estimate: linear within the bucket the quantile falls in; the last
    finite bound where it falls past it (None: no observations)."""
    bounds = sorted(buckets)
    total = buckets[bounds[-1]] if bounds else 0.0
    if total <= 0:
        return None
    rank, lower, below = q * total, 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * (rank - below) / max(count - below, 1e-9)
        lower, below = bound, count
    return lower


def wait_summary(before: Buckets, after: Buckets) -> dict[str, dict[str, dict[str, Any]]]:
    """Per backend, per kind (jobs, requests): the observations between two scrapes, how
    many waited past ``WAIT_BOUND_S`` and the estimated p50 and p99 wait in seconds."""
    summary: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, name in WAIT_HISTOGRAMS.items():
        for backend, counts in after.get(name, {}).items():
            earlier = before.get(name, {}).get(backend, {})
            diff = {le: n - earlier.get(le, 0.0) for le, n in counts.items()}
            total = diff.get(float("inf"), 0.0)
            quantiles = {
                f"p{round(q * 100)}_s": (
                    None if (v := histogram_quantile(q, diff)) is None else round(v, 3)
                )
                for q in (0.5, 0.99)
            }
            summary.setdefault(backend, {})[kind] = {
                "count": int(total),
                f"over_{WAIT_BOUND_S:g}_s": int(total - diff.get(WAIT_BOUND_S, 0.0)),
            } | quantiles
    return summary


def scrape_waits(url: str) -> Buckets:
    return wait_buckets(httpx.get(f"{url}/metrics", timeout=30).text)


def _refused_total(url: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=30).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("verifier_queue_refused_total{")
    )


async def run_trainer_client_level(
    url: str, clients: int, duration_s: float, workload: GrpoWorkload
) -> dict[str, Any]:
    """The mixed load through the trainer's client (its own retry policy); lost: an item
    without its result, or a batch the client gave up on."""
    from trainer.service_client import AsyncServiceClient, ClientSettings

    service = AsyncServiceClient(ClientSettings(urls=(url,)))
    stop_at = time.monotonic() + duration_s
    sent = lost = batches = 0
    errors: Counter[str] = Counter()
    refused_before = await asyncio.to_thread(_refused_total, url)

    async def client() -> None:
        nonlocal sent, lost, batches
        while time.monotonic() < stop_at:
            _task, items = workload.next()
            sent += len(items)
            batches += 1
            try:
                results = await service.score(items, {})
            except Exception as exc:  # the client gave up: every item of the batch is lost
                errors[type(exc).__name__] += 1
                lost += len(items)
                continue
            got = {(r.index, r.id) for r in results}
            lost += sum((i, item["id"]) not in got for i, item in enumerate(items))

    started = time.monotonic()
    await asyncio.gather(*(client() for _ in range(clients)))
    wall = time.monotonic() - started
    refused = await asyncio.to_thread(_refused_total, url) - refused_before
    return {
        "concurrency": clients,
        "wall_s": round(wall, 2),
        "batches": batches,
        "items_sent": sent,
        "lost_items": lost,
        "client_errors": dict(errors),
        "http_429": int(refused),
    }


def _wait_cells(level: dict[str, Any], backend: str = "sandbox") -> str:
    """A phase's queue waits in ``backend``: jobs' p50 / p99 seconds, then how many jobs and
    requests waited past the bound ("-": not measured in that run)."""
    waits = level.get("queue_wait", {}).get(backend)
    if not waits:
        return "- | -"
    jobs, requests = waits.get("jobs", {}), waits.get("requests", {})

    def seconds(value: float | None) -> str:
        return "-" if value is None else f"{value:g}"

    over = f"over_{WAIT_BOUND_S:g}_s"
    return (
        f"{seconds(jobs.get('p50_s'))} / {seconds(jobs.get('p99_s'))} | "
        f"{jobs.get(over, '-')} of {jobs.get('count', 0)} / "
        f"{requests.get(over, '-')} of {requests.get('count', 0)}"
    )


def grpo_table(report: dict[str, Any]) -> str:
    rows = [
        "| load | req/s | items/s | math p50 / p99 ms | code p50 / p99 ms (per attempt) | "
        "code p99 ms, end to end | 429s | 5xx | lost items | sandbox queue wait p50 / p99 s "
        f"(jobs) | sandbox waits > {WAIT_BOUND_S:g} s: jobs / requests |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in ("math_only", "mixed"):
        level = report[name]
        lat, e2e = level["latency_ms"], level["end_to_end_ms"]

        def pair(task: str, where: dict[str, Any] = lat) -> str:
            got = where.get(task)
            return f"{got['p50']:g} / {got['p99']:g}" if got else "-"

        rows.append(
            f"| {name.replace('_', ' ')} | {level['requests_per_s']:g} | "
            f"{level['items_per_s']:g} | {pair('math')} | {pair('code')} | "
            f"{e2e['code']['p99'] if 'code' in e2e else '-'} | "
            f"{sum(level['http_429_by_task'].values())} | {level['http_5xx']} | "
            f"{level['lost_items']} | {_wait_cells(level)} |"
        )
    trainer = report["trainer_client"]
    rows.append(
        f"| mixed, trainer's client | | | | | | {trainer['http_429']} | | {trainer['lost_items']} "
        f"({trainer['batches']} batches) | {_wait_cells(trainer)} |"
    )
    return "\n".join(rows)


def run_grpo(args: argparse.Namespace) -> None:
    report: dict[str, Any] = {
        "benchmark": "GRPO-like batches from concurrent clients: math only, then a quarter "
        "code batches with one spinning program among four (issue #25)",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
        },
        "settings": {
            "duration_s": args.duration,
            "clients": args.clients,
            "math_batch": args.math_batch,
            "code_batch": 4,
            "service": "started here" if args.url is None else "external",
            # The service started here reads the VERIFIER_* variables of this process.
            "service_env": {k: v for k, v in os.environ.items() if k.startswith("VERIFIER_")},
        },
    }
    with service(args.url, None) as url:
        for name, code in (("math_only", False), ("mixed", True)):
            workload = GrpoWorkload(args.math_batch, code)
            before = scrape_waits(url)
            report[name] = asyncio.run(
                run_level(url, args.clients, args.duration, args.timeout, workload, True)
            )
            report[name]["queue_wait"] = wait_summary(before, scrape_waits(url))
            print(f"{name}: {report[name]['items_per_s']} items/s", flush=True)
        before = scrape_waits(url)
        report["trainer_client"] = asyncio.run(
            run_trainer_client_level(
                url, args.clients, args.duration, GrpoWorkload(args.math_batch, True)
            )
        )
        report["trainer_client"]["queue_wait"] = wait_summary(before, scrape_waits(url))
    out = args.out if args.out != RESULTS / "load_test.json" else RESULTS / "load_test_grpo.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(grpo_table(report))
    print(f"wrote {out}")


def table(levels: list[dict[str, Any]], sep: str = "/") -> str:
    """Markdown table of the levels: throughput, latency percentiles per task, errors."""
    tasks = sorted({task for level in levels for task in level["latency_ms"]})
    percentiles = sep.join(("p50", "p95", "p99"))
    head = [
        "clients",
        "req/s",
        "items/s",
        *[f"{t} {percentiles} ms" for t in tasks],
        "5xx",
        "client errors",
        "lost items",
        "item statuses",
    ]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for level in levels:
        lat = [
            sep.join(f"{level['latency_ms'][t][p]:g}" for p in ("p50", "p95", "p99"))
            if t in level["latency_ms"]
            else "-"
            for t in tasks
        ]
        statuses = "; ".join(
            f"{task}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
            for task, c in sorted(level["item_status"].items())
        )
        cells = [
            str(level["concurrency"]),
            f"{level['requests_per_s']:g}",
            f"{level['items_per_s']:g}",
            *lat,
            str(level["http_5xx"]),
            str(sum(level["client_errors"].values())),
            str(level["lost_items"]),
            statuses,
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


@contextmanager
def service(url: str | None, verifier_url: str | None) -> Iterator[str]:
    if url is not None:
        yield url.rstrip("/")
        return
    env = {"VERIFIER_LLM_URL": verifier_url} if verifier_url else {}
    with running_service(env) as started:
        yield started


def check_loopback(url: str | None, what: str) -> None:
    if url is not None and urlparse(url).hostname not in LOOPBACK:
        raise SystemExit(f"{what} must be a loopback URL (this is a load test): {url}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--duration",
        type=float,
        default=60.0,
        help="seconds of sustained load per concurrency level",
    )
    parser.add_argument(
        "--concurrency", default="4,16,64", help="comma-separated numbers of concurrent clients"
    )
    parser.add_argument("--math-batch", type=int, default=32, help="items per math request")
    parser.add_argument("--code-batch", type=int, default=4, help="items per code request")
    parser.add_argument("--timeout", type=float, default=120.0, help="per-request timeout (s)")
    parser.add_argument("--url", help="an already running service (loopback); default: start one")
    parser.add_argument("--verifier-url", help="LLM verifier (loopback); adds rubric requests")
    parser.add_argument("--out", type=Path, default=RESULTS / "load_test.json")
    parser.add_argument("--scenario", choices=("mix", "grpo"), default="mix")
    parser.add_argument("--clients", type=int, default=16, help="clients (--scenario grpo)")
    args = parser.parse_args()
    check_loopback(args.url, "--url")
    check_loopback(args.verifier_url, "--verifier-url")
    if args.scenario == "grpo":
        run_grpo(args)
        return
    levels_wanted = [int(c) for c in args.concurrency.split(",") if c.strip()]
    if not levels_wanted or max(levels_wanted) > 512:
        raise SystemExit("--concurrency: 1 to 512 clients per level")

    levels = []
    load_before = os.getloadavg()
    with service(args.url, args.verifier_url) as url:
        for concurrency in levels_wanted:
            workload = Workload(args.math_batch, args.code_batch, args.verifier_url is not None)
            summary = asyncio.run(
                run_level(url, concurrency, args.duration, args.timeout, workload, True)
            )
            levels.append(summary)
            print(
                f"{concurrency} clients: {summary['requests_per_s']} req/s, "
                f"{summary['items_per_s']} items/s, 5xx {summary['http_5xx']}, "
                f"lost {summary['lost_items']}, 429 {sum(summary['http_429_by_task'].values())}",
                flush=True,
            )
    top = max(levels, key=lambda level: level["concurrency"])
    report = {
        "benchmark": "sustained mixed load: math + code (+ rubric) from concurrent clients",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg_at_start": [round(x, 2) for x in load_before],
        },
        "settings": {
            "duration_s": args.duration,
            "concurrency": levels_wanted,
            "math_batch": args.math_batch,
            "code_batch": args.code_batch,
            "rubric": args.verifier_url is not None,
            "service": "started here" if args.url is None else "external",
        },
        "levels": levels,
        "target_met_at_highest_concurrency": top["http_5xx"] == 0 and top["lost_items"] == 0,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(table(levels))
    if not report["target_met_at_highest_concurrency"]:
        raise SystemExit("target missed: 5xx or lost items at the highest concurrency")


if __name__ == "__main__":
    main()
