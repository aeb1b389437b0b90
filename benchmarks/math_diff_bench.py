"""Differential benchmark: our math checker vs math-verify on a hand-labelled corpus.

Both judge every pair of ``benchmarks/math_corpus.py`` in one run:
* ours: the real service (started here on loopback), ``/score/math`` with the lenient
  extraction policy, in batches as a trainer sends them;
* peer: math-verify 0.9's ``parse`` + ``verify`` in one process, and again in a pool of
  N processes (N = cores, ``--pool``), the pairs split evenly, as a trainer that fans its
  reward function out over processes runs it. A reference, and a bare answer, written
  without delimiters is given to it as ``$…$`` (it finds LaTeX only between delimiters),
  so it is judged at its best.

Prints agreement with the labels for both, every disagreement by category (who is right),
the throughput ratio on the same items against one process and against the pool, and how
many pairs the service sent to the symbolic engine (sympy); writes
``benchmarks/results/math_diff_bench.json``.
The two sides alternate for ``--rounds`` rounds (a fresh service, so a fresh cache, each
round) and the median ratio is reported: on a shared machine the load drifts between the
halves of a single round.
``--corpus bare`` runs the same comparison on ``benchmarks/bare_answers.py`` (bare answers
written differently from the reference, and close wrong ones) and also reports the share
of equivalent answers missed and the wrong ones accepted; it writes
``benchmarks/results/math_bare_bench.json``; ``--corpus fresh``, the same on
``benchmarks/fresh_pairs.py`` (a round written after the typed checker, before its fixes),
writes ``benchmarks/results/math_fresh_bench.json``; ``--corpus fresh2``, the same on
``benchmarks/fresh_pairs_2.py`` (a second such round), writes
``benchmarks/results/math_fresh2_bench.json``; ``--corpus fresh4`` and ``fresh5``, the
fourth and fifth rounds (``fresh_pairs_4.py``, ``fresh_pairs_5.py``: whole responses),
write ``math_fresh4_bench.json`` and ``math_fresh5_bench.json``.
``--pairs FILE`` scores labelled pairs from outside the project instead of a corpus (JSON
Lines of ``{"source": "<repo>/<path>", "reference": …, "answer": …, "label": …}``, with an
optional ``"settings"`` the source's test ran with, kept for reading only, and an optional
``"bare": true`` where the answer is given to math-verify as ``$…$``, as a bare corpus
answer is): the same comparison, one category per source; it writes
``benchmarks/results/math_outside_bench.json``, saying where the pairs came from (they are
other projects' test data and are not vendored here).
Usage: ``python benchmarks/math_diff_bench.py [--corpus main|bare|fresh|fresh2|fresh4|fresh5 |
--pairs FILE] [--rounds 3] [--batch 256] [--pool N]``.
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
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.managers import SyncManager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import (
    bare_answers,
    fresh_pairs,
    fresh_pairs_2,
    fresh_pairs_4,
    fresh_pairs_5,
    math_corpus,
)
from benchmarks.math_corpus import Case
from harness.service import ServiceProcess
from services.mathcheck.warm_up_set import WARM_UP_ANSWERS, WARM_UP_PAIRS

RESULTS = Path(__file__).resolve().parent / "results"


def delimited(text: str) -> str:
    """``text`` as math-verify reads it best: LaTeX is found only between delimiters."""
    if "$" in text or "\\boxed" in text or "\\(" in text or "\\[" in text:
        return text
    return f"${text}$"


_TICKS = os.sysconf("SC_CLK_TCK")


def _tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and all its descendants, reaped ones included (Linux)."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            stat = Path(f"/proc/{current}/stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
            # utime, stime, cutime, cstime: fields 14-17 of proc(5), 12-15 after the name.
            total += sum(int(value) for value in fields[11:15]) / _TICKS
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(child) for child in children)
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def _symbolic_comparisons(client: httpx.Client) -> float:
    """The service's count of verdicts the symbolic engine decided (cache hits excluded)."""
    for line in client.get("/metrics").text.splitlines():
        if line.startswith('verifier_math_method_total{method="symbolic"}'):
            return float(line.split()[-1])
    return 0.0


@dataclass
class OurRun:
    results: list[dict[str, Any]]
    seconds: float
    cpu_seconds: float
    # Comparisons the symbolic engine ran (each distinct pair once; the cache serves repeats).
    symbolic_runs: int


def run_ours(cases: list[Case], batch: int) -> OurRun:
    """Results, wall and CPU seconds (service and math workers) for ``cases``."""
    options = {"extraction": "lenient"}
    service = ServiceProcess()
    try:
        service.start()
        service.wait_ready()
        assert service.process is not None
        pid = service.process.pid
        with httpx.Client(base_url=service.url, timeout=600) as client:
            results: list[dict[str, Any]] = []
            symbolic_before = _symbolic_comparisons(client)
            cpu_before = _tree_cpu_seconds(pid)
            started = time.perf_counter()
            for start in range(0, len(cases), batch):
                items = [
                    {"completion": case.answer, "reference": case.reference}
                    for case in cases[start : start + batch]
                ]
                response = client.post("/score/math", json={"items": items, "options": options})
                response.raise_for_status()
                results.extend(response.json()["results"])
            elapsed = time.perf_counter() - started
            cpu = _tree_cpu_seconds(pid) - cpu_before
            symbolic = _symbolic_comparisons(client) - symbolic_before
        return OurRun(results, elapsed, cpu, int(symbolic))
    finally:
        service.stop()


def _warm_math_verify() -> None:
    from math_verify import parse, verify

    # The peer as published: our SLL-first parsing must not be installed in this process.
    assert "services.mathcheck.two_stage_parsing" not in sys.modules
    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    # Warmed before the clock on the same generic answers and comparisons as the service's
    # workers (none from the corpus), so both sides start from the same state.
    for text in WARM_UP_ANSWERS:
        parse(delimited(text))
    for reference, answer in WARM_UP_PAIRS:
        verify(parse(delimited(reference)), parse(delimited(answer)))


def _judge_with_math_verify(cases: list[Case]) -> list[bool]:
    from math_verify import parse, verify

    verdicts: list[bool] = []
    for case in cases:
        gold = parse(delimited(case.reference))
        pred = parse(delimited(case.answer) if case.bare else case.answer)
        verdicts.append(bool(gold) and bool(pred) and bool(verify(gold, pred)))
    return verdicts


def _math_verify_verdicts(cases: list[Case]) -> tuple[list[bool], float, float]:
    _warm_math_verify()
    cpu_before = time.process_time()
    started = time.perf_counter()
    verdicts = _judge_with_math_verify(cases)
    return verdicts, time.perf_counter() - started, time.process_time() - cpu_before


def run_math_verify(cases: list[Case]) -> tuple[list[bool], float, float]:
    """Verdicts, wall seconds and CPU seconds of math-verify, in-process in a fresh process.

    Each round starts a new one, as each round starts a new service: sympy's global cache
    would otherwise carry the previous round's results into this one (it halved
    math-verify's CPU per pair from the second round on) while our side starts cold.
    """
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(_math_verify_verdicts, cases).result()


def _pool_share(cases: list[Case], start: Any, done: Any) -> tuple[list[bool], float]:
    """One pool process: warm up, wait for the others, judge its share, say when it ended."""
    _warm_math_verify()
    start.wait()
    verdicts = _judge_with_math_verify(cases)
    finished = time.perf_counter()  # CLOCK_MONOTONIC: comparable across processes
    done.wait()
    return verdicts, finished


def run_math_verify_pool(cases: list[Case], processes: int) -> tuple[list[bool], float]:
    """Verdicts and wall seconds of math-verify in ``processes`` fresh, warmed processes.

    Every process takes every ``processes``-th pair (an even share of the kinds of pairs);
    the clock starts when all are warm and stops when the last one is done.
    """
    context = get_context("spawn")
    with SyncManager(ctx=context) as manager:
        start, done = manager.Barrier(processes + 1), manager.Barrier(processes + 1)
        with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
            # A process blocked on the barrier takes no second share: one share each.
            futures = [
                pool.submit(_pool_share, cases[index::processes], start, done)
                for index in range(processes)
            ]
            start.wait()
            started = time.perf_counter()
            done.wait()
            shares = [future.result() for future in futures]
    elapsed = max(finished for _, finished in shares) - started
    verdicts: list[bool] = [False] * len(cases)
    for index, (share, _) in enumerate(shares):
        verdicts[index::processes] = share
    return verdicts, elapsed


def _deciding_method(result: dict[str, Any]) -> str:
    """ "correct (symbolic: ...) (answer from bare)" -> "symbolic"; "none" without a check."""
    detail = str(result.get("detail") or "")
    opening = detail.find("(")
    method = detail[opening + 1 :].split(":", 1)[0] if opening >= 0 else ""
    return method if method.isalpha() else "none"


def _who_is_right(label: bool, ours: bool, theirs: bool) -> str:
    if ours == label:
        return "ours right, math-verify wrong"
    if theirs == label:
        return "math-verify right, ours wrong"
    return "both wrong"


def compare(cases: list[Case], ours: list[dict[str, Any]], theirs: list[bool]) -> dict[str, Any]:
    per_category: dict[str, Counter[str]] = defaultdict(Counter)
    disagreements: list[dict[str, Any]] = []
    for case, result, mv in zip(cases, ours, theirs, strict=True):
        mine = (result.get("components") or {}).get("correct") == 1.0
        counts = per_category[case.category]
        counts["pairs"] += 1
        counts["ours_right"] += mine == case.label
        counts["math_verify_right"] += mv == case.label
        if mine != case.label or mv != case.label:
            disagreements.append(
                {
                    "category": case.category,
                    "reference": case.reference,
                    "answer": case.answer,
                    "label": case.label,
                    "ours": mine,
                    "math_verify": mv,
                    "who": _who_is_right(case.label, mine, mv),
                    "extracted": result.get("extracted"),
                    "detail": result.get("detail"),
                }
            )
    return {"per_category": per_category, "disagreements": disagreements}


# Each corpus, and the results file its run writes.
CORPORA = {
    "main": (math_corpus, "math_diff_bench.json"),
    "bare": (bare_answers, "math_bare_bench.json"),
    "fresh": (fresh_pairs, "math_fresh_bench.json"),
    "fresh2": (fresh_pairs_2, "math_fresh2_bench.json"),
    "fresh4": (fresh_pairs_4, "math_fresh4_bench.json"),
    "fresh5": (fresh_pairs_5, "math_fresh5_bench.json"),
}


def load_pairs(path: str) -> tuple[SimpleNamespace, dict[tuple[str, str, str, bool], Any]]:
    """A corpus (``CASES``, ``CATEGORIES``: one per source) from a JSON Lines pairs file,
    and each pair's ``settings`` by (source, reference, answer, label)."""
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    cases = [
        Case(row["source"], row["reference"], row["answer"], row["label"], row.get("bare", False))
        for row in rows
    ]
    sources = tuple(dict.fromkeys(row["source"] for row in rows))
    settings = {
        (row["source"], row["reference"], row["answer"], row["label"]): row.get("settings")
        for row in rows
    }
    return SimpleNamespace(CASES=cases, CATEGORIES=sources, __name__=path), settings


def _missed_and_accepted(cases: list[Case], ours: list[bool], theirs: list[bool]) -> dict[str, Any]:
    """The answer-equivalence suite's figures: equivalent answers missed, wrong ones accepted."""
    equivalent = [i for i, case in enumerate(cases) if case.label]
    wrong = [i for i, case in enumerate(cases) if not case.label]
    figures: dict[str, Any] = {"equivalent": len(equivalent), "wrong": len(wrong)}
    for name, verdicts in (("ours", ours), ("math_verify", theirs)):
        missed = sum(not verdicts[i] for i in equivalent)
        figures[name] = {
            "missed": missed,
            "missed_share": round(missed / max(1, len(equivalent)), 4),
            "wrong_accepted": sum(verdicts[i] for i in wrong),
        }
    return figures


def check_ours(cases: list[Case], batch: int) -> None:
    """Print every pair on which the service disagrees with its label, and the count."""
    run = run_ours(cases, batch)
    wrong = [
        (case, result)
        for case, result in zip(cases, run.results, strict=True)
        if ((result.get("components") or {}).get("correct") == 1.0) != case.label
    ]
    for case, result in wrong:
        print(
            f"  [{case.category}] ref={case.reference!r} answer={case.answer[:80]!r} "
            f"label={case.label} detail={result.get('detail')!r}"
        )
    by_method = Counter(_deciding_method(result) for result in run.results)
    print(
        f"ours: {len(cases) - len(wrong)}/{len(cases)} agree with the labels; verdicts by "
        f"method {dict(by_method.most_common())}; symbolic comparisons run: {run.symbolic_runs}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="Alternate the sides N times.")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="main")
    parser.add_argument("--pairs", help="Labelled pairs from outside the project (JSON Lines).")
    parser.add_argument(
        "--pool", type=int, default=os.cpu_count() or 1, help="math-verify's pool size (cores)."
    )
    parser.add_argument("--output", help="Results file name under benchmarks/results/.")
    parser.add_argument(
        "--ours-only",
        action="store_true",
        help="Only our verdicts against the labels (a quick check; no timing, no file).",
    )
    args = parser.parse_args()
    corpus: Any  # a corpus module, or the pairs file read as one
    corpus, output = CORPORA[args.corpus]
    settings: dict[tuple[str, str, str, bool], Any] = {}
    if args.pairs:
        (corpus, settings), output = load_pairs(args.pairs), "math_outside_bench.json"
    if args.ours_only:
        check_ours(corpus.CASES, args.batch)
        return

    output = args.output or output
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    cases = list(corpus.CASES)
    ratios: list[float] = []
    pool_ratios: list[float] = []
    our_times: list[float] = []
    their_times: list[float] = []
    pool_times: list[float] = []
    cpu_ratios: list[float] = []
    symbolic_runs: list[int] = []
    for round_ in range(args.rounds):
        print(f"round {round_ + 1}: {len(cases)} pairs through the service...", file=sys.stderr)
        run = run_ours(cases, args.batch)
        ours = run.results
        print(f"round {round_ + 1}: math-verify in-process...", file=sys.stderr)
        theirs, their_time, their_cpu = run_math_verify(cases)
        print(f"round {round_ + 1}: math-verify in {args.pool} processes...", file=sys.stderr)
        pooled, pool_time = run_math_verify_pool(cases, args.pool)
        if pooled != theirs:
            raise SystemExit("math-verify's verdicts differ between one process and the pool")
        our_times.append(run.seconds)
        their_times.append(their_time)
        pool_times.append(pool_time)
        ratios.append(their_time / run.seconds)
        pool_ratios.append(pool_time / run.seconds)
        cpu_ratios.append(their_cpu / run.cpu_seconds)
        symbolic_runs.append(run.symbolic_runs)

    report = compare(cases, ours, theirs)
    for disagreement in report["disagreements"] if settings else []:
        key = tuple(disagreement[name] for name in ("category", "reference", "answer", "label"))
        disagreement["settings"] = settings[key]
    per_category = report["per_category"]
    n = len(cases)
    our_right = sum(c["ours_right"] for c in per_category.values())
    their_right = sum(c["math_verify_right"] for c in per_category.values())
    who = Counter(d["who"] for d in report["disagreements"])
    middle = sorted(range(len(ratios)), key=lambda i: ratios[i])[len(ratios) // 2]
    our_time, their_time = our_times[middle], their_times[middle]
    pool_middle = sorted(range(len(pool_ratios)), key=lambda i: pool_ratios[i])[len(ratios) // 2]
    by_method = Counter(_deciding_method(result) for result in ours)
    result = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "corpus": (
            f"{args.pairs}: labelled pairs taken from other projects' test files, not vendored"
            if args.pairs
            else f"{corpus.__name__.replace('.', '/')}.py (written by this project)"
        ),
        "pairs": (
            {
                "total": n,
                "not_vendored": True,
                "per_source": dict(Counter(c.category for c in cases)),
            }
            if args.pairs
            else n
        ),
        "rounds": args.rounds,
        "load_average_at_start": load_at_start,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "extraction": "lenient",
        "ours": {
            "right": our_right,
            "agreement": round(our_right / n, 4),
            "seconds": round(our_time, 3),
            "pairs_per_s": round(n / our_time, 1),
        },
        "math_verify": {
            "right": their_right,
            "agreement": round(their_right / n, 4),
            "seconds": round(their_time, 3),
            "pairs_per_s": round(n / their_time, 1),
        },
        "math_verify_pool": {
            "processes": args.pool,
            "seconds": round(pool_times[pool_middle], 3),
            "pairs_per_s": round(n / pool_times[pool_middle], 1),
        },
        "throughput_ratio": round(their_time / our_time, 2),
        # Ours over math-verify's pool of N processes on the same cores (median round).
        "pool_ratio": round(pool_ratios[pool_middle], 2),
        "pool_ratio_per_round": [round(ratio, 2) for ratio in pool_ratios],
        # Which of our checks decided each pair (a cached verdict counts as the check that
        # made it), and how many comparisons the symbolic engine actually ran per round.
        "verdicts_by_method": dict(by_method.most_common()),
        "reached_sympy_share": round(by_method["symbolic"] / n, 4),
        "symbolic_runs_per_round": symbolic_runs,
        "throughput_ratio_per_round": [round(ratio, 2) for ratio in ratios],
        # CPU seconds per pair, math-verify over ours (service + workers): what the ratio
        # would be with the cores to ourselves, whatever else the machine runs.
        "cpu_ratio": round(statistics.median(cpu_ratios), 2),
        "cpu_ratio_per_round": [round(ratio, 2) for ratio in cpu_ratios],
        "who_is_right": dict(who),
        "per_category": {name: dict(per_category[name]) for name in corpus.CATEGORIES},
        "missed_and_accepted": _missed_and_accepted(
            cases,
            [(r.get("components") or {}).get("correct") == 1.0 for r in ours],
            theirs,
        ),
        "disagreements": report["disagreements"],
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / output).write_text(json.dumps(result, indent=2) + "\n")

    print("| category | pairs | ours right | math-verify right |\n|---|---|---|---|")
    for name in corpus.CATEGORIES:
        counts = per_category[name]
        print(
            f"| {name} | {counts['pairs']} | {counts['ours_right']} | "
            f"{counts['math_verify_right']} |"
        )
    print(
        f"| **all** | {n} | {our_right} ({our_right / n:.1%}) | "
        f"{their_right} ({their_right / n:.1%}) |\n"
    )
    print(
        f"Throughput on the same {n} items (median of {args.rounds} rounds): ours "
        f"{result['ours']['pairs_per_s']} pairs/s, math-verify "
        f"{result['math_verify']['pairs_per_s']} pairs/s: **{result['throughput_ratio']}x** "
        f"(rounds: {result['throughput_ratio_per_round']}); CPU time per pair, math-verify "
        f"over ours: {result['cpu_ratio']}x (rounds: {result['cpu_ratio_per_round']})."
    )
    print(
        f"math-verify in {args.pool} processes: {result['math_verify_pool']['pairs_per_s']} "
        f"pairs/s: ours **{result['pool_ratio']}x** the pool (rounds: "
        f"{result['pool_ratio_per_round']}). Verdicts by method: {result['verdicts_by_method']} "
        f"({result['reached_sympy_share']:.1%} reached sympy; symbolic comparisons run per "
        f"round: {symbolic_runs})."
    )
    figures = result["missed_and_accepted"]
    for name in ("ours", "math_verify"):
        side = figures[name]
        print(
            f"{name}: missed {side['missed']}/{figures['equivalent']} equivalent answers "
            f"({side['missed_share']:.1%}), accepted {side['wrong_accepted']}/{figures['wrong']} "
            "wrong ones"
        )
    for kind, count in sorted(who.items()):
        print(f"\n{kind}: {count}")
        for d in report["disagreements"]:
            if d["who"] == kind:
                print(
                    f"  [{d['category']}] ref={d['reference']!r} answer={d['answer'][:80]!r} "
                    f"label={d['label']} ours={d['ours']} mv={d['math_verify']} "
                    f"extracted={d['extracted']!r} {d.get('settings') or ''}"
                )


if __name__ == "__main__":
    main()
