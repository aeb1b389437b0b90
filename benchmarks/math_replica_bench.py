"""One replica under one large math batch, its scaling with cores, and the ratio against a
math-verify process pool of the same size, on realistic GRPO math batches.

The batches: ``benchmarks/math_dataset`` groups (8 completions a reference, answers in
many forms, a share of them only equal after algebra), each completion padded to a long
chain of thought (1-8k characters of worked steps with inline LaTeX, as reasoning models
write) before its final answer. The share of items that reached the symbolic engine is
reported from the service's own details.

Three parts, each against the real service on loopback (``harness.service``):

* ``single``: one ``--items`` (4,096: a verl step of 512 prompts x 8) item batch to a
  replica of ``--workers`` workers while ``/health`` is polled every 20 ms and a second
  client sends 16-item batches one after another: the batch's seconds and items/s, the
  health latencies, the small batches' latencies and how many were refused (429) or
  answered ``timeout``; verdicts against the labels. ``--symbolic-share`` replaces that
  share of the batch with unique answers that reach the symbolic engine (the issue's
  algebra-needing batch: a sixth).
* ``sweep``: the same kind of batch (``--sweep-items``) to replicas of 1, 2, ... workers
  up to the cores: items/s and the ratio to 1 worker's (the goal: N x 0.8).
* ``chunks``: items/s of such a batch by ``VERIFIER_MATH_CHUNK_ITEMS`` (``--chunk-sizes``),
  which is how the default chunk size was chosen.
* ``peer``: per round, the service with N workers and math-verify (``parse`` + ``verify``
  on the completion, as trainers call it) in a pool of N fresh warmed processes, on the same
  items; the median ratio of rounds.

Usage: ``python benchmarks/math_replica_bench.py [--parts single,sweep,chunks,peer] [--workers N]
[--items 4096] [--symbolic-share 0.17] [--sweep-items 2048] [--peer-items 2048]
[--rounds 3]``; writes
``benchmarks/results/math_replica_bench.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.math_corpus import Case
from benchmarks.math_dataset import Pair, build_annotated_dataset
from benchmarks.math_diff_bench import run_math_verify_pool
from harness.service import running_service

RESULTS = Path(__file__).resolve().parent / "results"

_STEPS = (
    "Let $x$ denote the unknown quantity. Then from the first condition we have "
    "$2x + 3 = 11$, so $x = 4$.",
    "Expanding, $(a+b)^2 = a^2 + 2ab + b^2$, and substituting $a = 3$, $b = 5$ gives "
    "$9 + 30 + 25 = 64$.",
    "We check the boundary cases: when $n = 1$ the sum is $1$, when $n = 2$ it is "
    "$1 + 4 = 5$, consistent with $\\frac{n(n+1)(2n+1)}{6}$.",
    "Wait, let me re-examine this step. The denominator is $\\sqrt{2}$, so rationalising "
    "gives $\\frac{\\sqrt{2}}{2}$.",
    "By the Pythagorean theorem, $c^2 = 6^2 + 8^2 = 100$, hence $c = 10$.",
    "Now consider the interval $[0, 2\\pi)$: the equation $\\sin x = \\frac{1}{2}$ has "
    "solutions $x = \\frac{\\pi}{6}$ and $x = \\frac{5\\pi}{6}$.",
    "Hmm, that does not look right. Let me recompute: $12 \\times 7 = 84$, not $82$.",
    "So the probability is $\\frac{3}{8} \\cdot \\frac{2}{7} = \\frac{6}{56} = \\frac{3}{28}$.",
    "Factoring the quadratic, $x^2 - 5x + 6 = (x - 2)(x - 3)$, so the roots are 2 and 3.",
    "Taking logarithms of both sides, $\\log_2 32 = 5$, which matches the count above.",
)


def long_completion(rng: random.Random, completion: str) -> str:
    """``completion`` after a chain of thought of 1-8k characters (in a think block)."""
    target = rng.randint(1_000, 8_000)
    steps: list[str] = []
    size = 0
    while size < target:
        step = rng.choice(_STEPS)
        steps.append(step)
        size += len(step) + 1
    return "<think>\n" + "\n".join(steps) + "\n</think>\n" + completion


def grpo_pairs(items: int, seed: int = 0) -> tuple[list[Pair], float]:
    """``items`` GRPO pairs with long completions (groups of 8), and the share whose
    answer the generator wrote in a form only algebra shows equal (or not)."""
    rng = random.Random(seed)
    annotated = build_annotated_dataset(n_references=items // 8 + 1, group_size=8, seed=seed)
    annotated = annotated[:items]
    pairs = [
        Pair(
            a.pair.reference, long_completion(rng, a.pair.completion), a.pair.label, a.pair.category
        )
        for a in annotated
    ]
    return pairs, sum(a.needs_symbolic for a in annotated) / max(1, len(annotated))


def with_symbolic(pairs: list[Pair], share: float, seed: int = 2) -> list[Pair]:
    """``pairs`` with every ``1/share``-th one replaced by a unique answer with a
    trigonometric factor, which the numeric probe leaves to the symbolic engine (a third
    of them wrong), in a long completion."""
    if share <= 0:
        return pairs
    rng = random.Random(seed)
    step = max(1, round(1 / share))
    out = list(pairs)
    for n in range(0, len(out), step):
        k = n + 1
        reference = f"\\frac{{{k}\\sqrt{{3}}}}{{3}}\\cos(2x)" if k % 3 else f"{k}\\cos(2x)"
        answer = f"\\frac{{{k}}}{{\\sqrt{{3}}}}\\cos 2x"
        completion = long_completion(rng, f"So the answer is $\\boxed{{{answer}}}$.")
        out[n] = Pair(reference, completion, k % 3 != 0, "symbolic")
    return out


def _item(pair: Pair) -> dict[str, Any]:
    return {"task": "math", "completion": pair.completion, "reference": pair.reference}


def _verdict(result: dict[str, Any]) -> bool | None:
    components = result.get("components") or {}
    if components.get("no_answer") == 1.0:
        return None
    return bool(components.get("correct"))


def _right(verdict: bool | None, label: bool | None) -> bool:
    return (verdict is None or verdict is False) if label is None else verdict is label


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def _env(workers: int, chunk: int | None = None) -> dict[str, str]:
    env = {"VERIFIER_MATH_WORKERS": str(workers), "VERIFIER_EXTRACTION": "lenient"}
    if chunk is not None:
        env["VERIFIER_MATH_CHUNK_ITEMS"] = str(chunk)
    return env


def score_once(url: str, pairs: list[Pair]) -> tuple[list[dict[str, Any]], float]:
    with httpx.Client(base_url=url, timeout=1800) as client:
        started = time.perf_counter()
        response = client.post("/score", json={"items": [_item(p) for p in pairs]})
        elapsed = time.perf_counter() - started
    response.raise_for_status()
    results: list[dict[str, Any]] = response.json()["results"]
    return results, elapsed


def single(workers: int, pairs: list[Pair], small: list[Pair]) -> dict[str, Any]:
    """One large batch while /health is polled and a small client sends batches."""
    with running_service(_env(workers)) as url:
        score_once(url, small)  # a first request: connections and workers warm
        done = threading.Event()
        health: list[float] = []
        small_latency: list[float] = []
        small_codes: list[int] = []
        small_timeouts = 0

        def poll_health() -> None:
            with httpx.Client(base_url=url, timeout=60) as client:
                while not done.is_set():
                    sent = time.perf_counter()
                    client.get("/health").raise_for_status()
                    health.append(time.perf_counter() - sent)
                    time.sleep(0.02)

        def small_client() -> None:
            nonlocal small_timeouts
            with httpx.Client(base_url=url, timeout=120) as client:
                while not done.is_set():
                    sent = time.perf_counter()
                    response = client.post("/score", json={"items": [_item(p) for p in small]})
                    small_latency.append(time.perf_counter() - sent)
                    small_codes.append(response.status_code)
                    if response.status_code == 200:
                        results = response.json()["results"]
                        small_timeouts += sum(r["status"] == "timeout" for r in results)
                    time.sleep(0.05)

        threads = [threading.Thread(target=poll_health), threading.Thread(target=small_client)]
        for thread in threads:
            thread.start()
        try:
            results, elapsed = score_once(url, pairs)
        finally:
            done.set()
            for thread in threads:
                thread.join(timeout=120)
    statuses: dict[str, int] = {}
    for result in results:
        statuses[result["status"]] = statuses.get(result["status"], 0) + 1
    judged = [(_verdict(r), p) for r, p in zip(results, pairs, strict=True)]
    right = sum(_right(verdict, p.label) for verdict, p in judged)
    # Where the verdict is not the label: (category, label, verdict) and how many.
    missed: dict[str, int] = {}
    for verdict, p in judged:
        if not _right(verdict, p.label):
            key = f"{p.category}: label {p.label}, verdict {verdict}"
            missed[key] = missed.get(key, 0) + 1
    symbolic = sum("symbolic" in str(r.get("detail")) for r in results)
    return {
        "workers": workers,
        "items": len(pairs),
        "seconds": round(elapsed, 2),
        "items_per_s": round(len(pairs) / elapsed, 1),
        "statuses": statuses,
        "right_against_labels": f"{right}/{len(pairs)}",
        "not_the_label": missed,
        "reached_symbolic": symbolic,
        "health": {
            "polls": len(health),
            "p50_ms": _ms(_pct(health, 0.5)),
            "p99_ms": _ms(_pct(health, 0.99)),
            "max_ms": _ms(max(health) if health else None),
        },
        "small_client": {
            "batch_items": len(small),
            "requests": len(small_latency),
            "refused_429": sum(code == 429 for code in small_codes),
            "other_errors": sum(code not in (200, 429) for code in small_codes),
            "item_timeouts": small_timeouts,
            "p50_ms": _ms(_pct(small_latency, 0.5)),
            "p99_ms": _ms(_pct(small_latency, 0.99)),
            "max_ms": _ms(max(small_latency) if small_latency else None),
        },
    }


def _processes() -> dict[int, tuple[int, str]]:
    """Every process's parent and command line (Linux: /proc)."""
    found: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        found[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), cmdline)
    return found


def _service_tree(url: str) -> tuple[int, list[int]]:
    """The service's process and its descendants (the math workers, the fork server)."""
    port = url.rsplit(":", 1)[1]
    processes = _processes()
    service = next(
        pid for pid, (_, cmd) in processes.items() if "uvicorn" in cmd and f"--port {port}" in cmd
    )
    tree, frontier = [], [service]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, (ppid, _) in processes.items() if ppid == parent]
        tree.extend(children)
        frontier.extend(children)
    return service, tree


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes have used."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def measured(
    workers: int, pairs: list[Pair], chunk: int | None = None
) -> tuple[float, float, float]:
    """Items/s of one batch on a fresh replica of ``workers`` (after a small warm batch),
    and the CPU seconds per wall second its event loop's process and its workers got."""
    with running_service(_env(workers, chunk)) as url:
        score_once(url, pairs[:16])
        service, children = _service_tree(url)
        loop_cpu, workers_cpu = _cpu_s([service]), _cpu_s(children)
        _, elapsed = score_once(url, pairs)
        loop_cpu = _cpu_s([service]) - loop_cpu
        workers_cpu = _cpu_s(children) - workers_cpu
    return len(pairs) / elapsed, loop_cpu / elapsed, workers_cpu / elapsed


def throughput(workers: int, pairs: list[Pair], chunk: int | None = None) -> float:
    return measured(workers, pairs, chunk)[0]


def sweep(pairs: list[Pair], cores: int, rounds: int) -> dict[str, Any]:
    """Items/s by workers, the worker counts interleaved for ``rounds`` rounds (the load of
    a shared machine drifts), the median of each."""
    runs: dict[int, list[float]] = {n: [] for n in range(1, cores + 1)}
    got: dict[int, list[tuple[float, float]]] = {n: [] for n in runs}
    for _ in range(rounds):
        for n in runs:
            rate, loop_cores, worker_cores = measured(n, pairs)
            runs[n].append(rate)
            got[n].append((loop_cores, worker_cores))
    rates = {n: statistics.median(values) for n, values in runs.items()}
    base = rates[1]
    return {
        "items": len(pairs),
        "rounds": {str(n): [round(v, 1) for v in values] for n, values in runs.items()},
        # CPU seconds per wall second the event loop's process and the workers got: on a
        # shared machine, the cores the workers could use.
        "cores_got_loop_workers": {
            str(n): [[round(a, 2), round(b, 2)] for a, b in values] for n, values in got.items()
        },
        "items_per_s": {str(n): round(rate, 1) for n, rate in rates.items()},
        "scaling": {str(n): round(rate / base, 2) for n, rate in rates.items()},
        "goal": {str(n): round(0.8 * n, 2) for n in rates},
    }


def chunks(workers: int, pairs: list[Pair], sizes: list[int]) -> dict[str, Any]:
    """Items/s by the items a chunk carries (VERIFIER_MATH_CHUNK_ITEMS)."""
    return {
        "workers": workers,
        "items": len(pairs),
        "items_per_s": {str(size): round(throughput(workers, pairs, size), 1) for size in sizes},
    }


def peer(workers: int, pairs: list[Pair], rounds: int) -> dict[str, Any]:
    cases = [Case(p.category, p.reference, p.completion, bool(p.label), False) for p in pairs]
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(rounds):
        ours.append(throughput(workers, pairs))
        _, elapsed = run_math_verify_pool(cases, workers)
        theirs.append(len(pairs) / elapsed)
    ratios = [o / t for o, t in zip(ours, theirs, strict=True)]
    return {
        "workers": workers,
        "items": len(pairs),
        "ours_items_per_s": [round(x, 1) for x in ours],
        "math_verify_pool_items_per_s": [round(x, 1) for x in theirs],
        "ratios": [round(x, 2) for x in ratios],
        "median_ratio": round(statistics.median(ratios), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="single,sweep,peer")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--items", type=int, default=4096)
    parser.add_argument("--sweep-items", type=int, default=2048)
    parser.add_argument("--peer-items", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chunk-sizes", default="1,4,16,32,64")
    parser.add_argument(
        "--symbolic-share",
        type=float,
        default=0.0,
        help="share of the single batch's items replaced by ones that reach sympy",
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "math_replica_bench.json")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    report: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "load_avg_before": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(),
        },
    }
    pairs, algebra = grpo_pairs(max(args.items, args.sweep_items, args.peer_items))
    lengths = sorted(len(p.completion) for p in pairs)
    report["batch"] = {
        "needs_algebra_share": round(algebra, 3),
        "completion_chars_p50": lengths[len(lengths) // 2],
        "completion_chars_max": lengths[-1],
    }
    if "single" in parts:
        small, _ = grpo_pairs(16, seed=1)
        batch = with_symbolic(pairs[: args.items], args.symbolic_share)
        report["single"] = single(args.workers, batch, small)
        report["single"]["symbolic_share_asked"] = args.symbolic_share
        print(json.dumps(report["single"], indent=2), flush=True)
    if "sweep" in parts:
        report["sweep"] = sweep(pairs[: args.sweep_items], args.workers, args.rounds)
        print(json.dumps(report["sweep"], indent=2), flush=True)
    if "chunks" in parts:
        sizes = [int(size) for size in args.chunk_sizes.split(",")]
        report["chunks"] = chunks(args.workers, pairs[: args.sweep_items], sizes)
        print(json.dumps(report["chunks"], indent=2), flush=True)
    if "peer" in parts:
        report["peer"] = peer(args.workers, pairs[: args.peer_items], args.rounds)
        print(json.dumps(report["peer"], indent=2), flush=True)
    report["machine"]["load_avg_after"] = [round(x, 2) for x in os.getloadavg()]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
