"""Math scoring benchmark: the service's batched path vs math-verify called in-process.

Both judge the same generated GRPO-style pairs (``benchmarks/math_dataset/``) in one run:
* ours: the real service (started here on loopback), 256-item ``/score/math`` batches,
  sent one after another as a trainer would;
* peer: math-verify's ``parse`` + ``verify`` on each pair, sequentially, in this process
  (how TRL/verl-style reward functions call it), and again in a pool of N warmed processes
  (N = cores, ``--pool``; ``math_diff_bench.run_math_verify_pool``), as a trainer that fans
  its reward function out over processes runs it.

Writes ``benchmarks/results/math_bench.json`` and prints a Markdown table.
Usage: ``python benchmarks/math_bench.py [--references 400] [--batch 256] [--pool N]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.math_corpus import Case
from benchmarks.math_dataset import Pair, build_dataset
from benchmarks.math_diff_bench import run_math_verify_pool
from harness.service import running_service

RESULTS = Path(__file__).resolve().parent / "results"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def run_ours(pairs: list[Pair], batch: int) -> tuple[list[dict[str, Any]], float, list[float]]:
    with running_service() as url, httpx.Client(base_url=url, timeout=600) as client:
        latencies: list[float] = []
        results: list[dict[str, Any]] = []
        started = time.perf_counter()
        for start in range(0, len(pairs), batch):
            chunk = pairs[start : start + batch]
            items = [{"completion": p.completion, "reference": p.reference} for p in chunk]
            sent = time.perf_counter()
            response = client.post("/score/math", json={"items": items})
            latencies.append(time.perf_counter() - sent)
            response.raise_for_status()
            results.extend(response.json()["results"])
        elapsed = time.perf_counter() - started
    return results, elapsed, latencies


def run_math_verify(pairs: list[Pair]) -> tuple[list[bool | None], float]:
    from math_verify import parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    verdicts: list[bool | None] = []
    started = time.perf_counter()
    for pair in pairs:
        # References are bare LaTeX; math-verify finds LaTeX between delimiters.
        gold = parse(f"${pair.reference}$")
        pred = parse(pair.completion)
        verdicts.append(None if not pred else bool(verify(gold, pred)))
    return verdicts, time.perf_counter() - started


def _our_verdict(result: dict[str, Any]) -> bool | None:
    components = result.get("components") or {}
    if components.get("no_answer") == 1.0:
        return None
    return bool(components.get("correct"))


def _judged_right(verdict: bool | None, label: bool | None) -> bool:
    # A no-answer pair is judged right when it is not called correct.
    return verdict is None or verdict is False if label is None else verdict is label


def _reason(label: bool | None, ours: bool | None, theirs: bool | None, method: str) -> str:
    """Why the two checkers disagree on a pair, stated from the pair's true label."""
    if label is None and theirs:
        return (
            "the completion has no final answer; math-verify graded an expression from the working"
        )
    if label is True and theirs is None:
        return "math-verify found no answer in this completion's format"
    if label is True and not theirs:
        if method == "answer_tag":
            return (
                "answer inside <answer> tags without $ delimiters, which math-verify does not read"
            )
        return "an equivalent form of the answer that math-verify rejects"
    if label is False and theirs:
        return "math-verify accepted a wrong answer"
    if ours is not label:
        return "reward-verifier is wrong on this pair"
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--references", type=int, default=400)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument(
        "--pool", type=int, default=os.cpu_count() or 1, help="math-verify's pool size (cores)."
    )
    args = parser.parse_args()

    pairs = build_dataset(n_references=args.references)
    print(f"{len(pairs)} pairs; scoring through the service...", file=sys.stderr)
    ours, our_time, latencies = run_ours(pairs, args.batch)
    print("scoring with math-verify in-process...", file=sys.stderr)
    theirs, their_time = run_math_verify(pairs)
    print(f"scoring with math-verify in {args.pool} processes...", file=sys.stderr)
    # The same work as run_math_verify: the reference between $...$, the completion as is.
    as_cases = [Case(p.category, p.reference, p.completion, bool(p.label), False) for p in pairs]
    _, pool_time = run_math_verify_pool(as_cases, args.pool)

    disagreements: list[dict[str, Any]] = []
    our_right = their_right = 0
    for pair, result, mv in zip(pairs, ours, theirs, strict=True):
        mine = _our_verdict(result)
        our_right += _judged_right(mine, pair.label)
        their_right += _judged_right(mv, pair.label)
        if (mine is True) != (mv is True):
            detail = str(result.get("detail", ""))
            method = (
                detail.rsplit("answer from ", 1)[-1].rstrip(")") if "answer from" in detail else ""
            )
            disagreements.append(
                {
                    "category": pair.category,
                    "reference": pair.reference,
                    "extracted": result.get("extracted"),
                    "label": pair.label,
                    "ours": mine,
                    "math_verify": mv,
                    "ours_matches_label": _judged_right(mine, pair.label),
                    "detail": detail,
                    "reason": _reason(pair.label, mine, mv, method),
                }
            )
    statuses: dict[str, int] = {}
    for result in ours:
        statuses[result["status"]] = statuses.get(result["status"], 0) + 1
    n = len(pairs)
    report = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "pairs": n,
        "batch_size": args.batch,
        "ours": {
            "seconds": round(our_time, 3),
            "pairs_per_s": round(n / our_time, 1),
            "batch_latency_p50_s": round(statistics.median(latencies), 4),
            "batch_latency_p99_s": round(_percentile(latencies, 0.99), 4),
            "accuracy_vs_labels": round(our_right / n, 4),
            "statuses": statuses,
        },
        "math_verify": {
            "seconds": round(their_time, 3),
            "pairs_per_s": round(n / their_time, 1),
            "accuracy_vs_labels": round(their_right / n, 4),
        },
        "math_verify_pool": {
            "processes": args.pool,
            "seconds": round(pool_time, 3),
            "pairs_per_s": round(n / pool_time, 1),
        },
        "throughput_ratio": round(their_time / our_time, 2),
        "pool_ratio": round(pool_time / our_time, 2),
        "agreement_with_math_verify": round(1 - len(disagreements) / n, 4),
        "disagreement_reasons": dict(Counter(str(d["reason"]) for d in disagreements)),
        "disagreements": disagreements,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "math_bench.json").write_text(json.dumps(report, indent=2) + "\n")
    print(
        "| path | pairs/s | p50 / p99 latency per 256-item batch | right vs labels |\n"
        "|---|---|---|---|\n"
        f"| reward-verifier `/score/math` | {report['ours']['pairs_per_s']} | "
        f"{report['ours']['batch_latency_p50_s']:.3f} s / "
        f"{report['ours']['batch_latency_p99_s']:.3f} s | {our_right}/{n} |\n"
        f"| math-verify in-process | {report['math_verify']['pairs_per_s']} | – | "
        f"{their_right}/{n} |\n"
        f"| math-verify in {args.pool} processes | {report['math_verify_pool']['pairs_per_s']} "
        "| – | – |\n\n"
        f"Throughput ratio: **{report['throughput_ratio']}×** one process, "
        f"**{report['pool_ratio']}×** the pool; agreement with math-verify "
        f"{report['agreement_with_math_verify']:.1%} ({len(disagreements)} disagreements, "
        f"ours matches the label in "
        f"{sum(bool(d['ours_matches_label']) for d in disagreements)} of them)."
    )
    for reason, count in sorted(report["disagreement_reasons"].items(), key=lambda kv: -kv[1]):
        print(f"- {count}: {reason}")


if __name__ == "__main__":
    main()
