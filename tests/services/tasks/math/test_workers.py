"""The math workers with real processes: whole items judged there, the same verdicts as
the judge in-process, deadlines of an item's own compute, a chunk that hangs retried item
by item, and requests served round-robin."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from harness.service import running_service
from services.contract.protocol import ExtractionPolicy, Status
from services.mathcheck.checker import MathChecker, Outcome
from services.mathcheck.pool import SymbolicPool
from services.tasks.math.judge import MathJudge
from services.tasks.math.workers import ChunkResult, MathJob, MathWorkers

# Passes the cheap guards, then keeps sympy busy far longer than any deadline here.
STUCK = "\\prod_{k=1}^{5000} (x+k)"

PAIRS = [
    ("\\frac{1}{2}", "0.5"),
    ("\\sin^2 t", "1 - \\cos^2 t"),
    ("3", "4"),
    ("\\{1, 2\\}", "\\{2, 1\\}"),
    ("x^2-1", "(x-1)(x+2)"),
    ("(C) 12", "\\frac{24}{2}"),
    ("\\frac{\\sqrt{2}}{2}\\cos(2x)", "\\frac{1}{\\sqrt{2}}\\cos 2x"),
    ("", "1"),  # a reference that holds no answer
]


def _job(reference: str, answer: str, **changes: Any) -> MathJob:
    completion = f"<think>some reasoning</think> The answer is \\boxed{{{answer}}}"
    values: dict[str, Any] = {
        "reference": reference,
        "completion": completion,
        "extraction": ExtractionPolicy.MARKED,
        "after_reasoning": True,
        "min_thinking_words": 0,
    }
    values.update(changes)
    return MathJob(**values)


@pytest.fixture(scope="module")
def workers() -> Iterator[MathWorkers]:
    engine = MathWorkers(2, timeout_s=1.0, memory_mb=2048, cache_size=256, chunk_items=4)
    asyncio.run(engine.warm())
    yield engine
    engine.close()


def test_items_judged_in_workers_get_the_in_process_judgement(workers: MathWorkers) -> None:
    jobs = [_job(reference, answer) for reference, answer in PAIRS]
    pool = SymbolicPool(workers=1, timeout_s=10.0, memory_mb=2048)
    try:
        judge = MathJudge(MathChecker(pool, 64))

        async def both() -> tuple[list[Any], list[Any]]:
            here = [
                await judge.judge_text(
                    0,
                    None,
                    job.reference,
                    job.completion,
                    job.extraction,
                    job.after_reasoning,
                    job.min_thinking_words,
                )
                for job in jobs
            ]
            return here, await workers.judge(jobs)

        here, there = asyncio.run(both())
    finally:
        pool.close()
    assert there == here
    assert [j.correct for j in there] == [True, True, False, True, False, True, True, None]
    assert there[-1].status is Status.ERROR


def test_the_checker_api_answers_from_the_workers(workers: MathWorkers) -> None:
    verdict = asyncio.run(workers.check("\\sin^2 t", "1 - \\cos^2 t"))
    assert (verdict.outcome, verdict.method) == (Outcome.EQUAL, "symbolic")


def test_a_stuck_leaf_times_out_on_its_own_compute_and_the_chunk_goes_on(
    workers: MathWorkers,
) -> None:
    jobs = [_job("1", STUCK), *(_job(str(n), f"{n}.0") for n in range(7))]
    started = time.monotonic()
    judged = asyncio.run(workers.judge(jobs))
    assert time.monotonic() - started < 60
    assert judged[0].status is Status.TIMEOUT and "CPU time" in judged[0].detail
    assert [(j.status, j.correct) for j in judged[1:]] == [(Status.OK, True)] * 7


def _sleepy(items: list[str]) -> ChunkResult:
    """A chunk function the CPU timer cannot stop: 'hang' sleeps far past any backstop."""
    for item in items:
        if item == "hang":
            time.sleep(600)
    return [f"done {item}" for item in items], [], [], 0.0


def test_a_chunk_that_hangs_is_killed_and_only_the_hanging_item_fails(
    workers: MathWorkers,
) -> None:
    payload = ["a", "b", "hang", "c", "d", "e"]

    def failure(item: str, error: BaseException) -> str:
        return f"failed {item}: {type(error).__name__}"

    started = time.monotonic()
    results = asyncio.run(workers._run(_sleepy, payload, failure))
    # The chunk's backstop (10 s + 0.5 s an item), then the item's own (21 s).
    assert time.monotonic() - started < 120
    assert results == [
        "done a",
        "done b",
        "failed hang: TimeoutError",
        "done c",
        "done d",
        "done e",
    ]
    # The pool serves on.
    assert asyncio.run(workers.check("2", "2.0")).outcome is Outcome.EQUAL


def test_duplicates_are_judged_once(workers: MathWorkers) -> None:
    methods: list[str] = []
    engine = MathWorkers(1, 1.0, 2048, 256, on_method=methods.append)
    try:
        jobs = [_job("\\frac{1}{2}", "0.5")] * 50 + [_job("3", "4")] * 50
        judged = asyncio.run(engine.judge(jobs))
    finally:
        engine.close()
    assert [j.correct for j in judged] == [True] * 50 + [False] * 50
    assert len(methods) == 2


def test_a_small_request_is_not_served_after_a_large_one(workers: MathWorkers) -> None:
    # Unique symbolic comparisons (a trigonometric factor: the numeric probe leaves these to
    # sympy; "\\cos 2x \\cdot 1", math-verify's parser's cos(2x·1), the expression reader
    # leaves to that parser), a few seconds of work.
    large = [
        _job(
            f"\\frac{{{n}\\sqrt{{3}}}}{{3}}\\cos(2x)",
            f"\\frac{{{n}}}{{\\sqrt{{3}}}}\\cos 2x \\cdot 1",
        )
        for n in range(1, 121)  # several seconds of work, many chunks even on a busy machine
    ]
    small = [_job("7", "7.0"), _job("\\frac{1}{3}", "0.3333")]

    async def both() -> tuple[float, float]:
        started = time.monotonic()
        big = asyncio.ensure_future(workers.judge(large))
        await asyncio.sleep(0.2)  # the large request holds every worker
        judged = await workers.judge(small)
        small_s = time.monotonic() - started
        assert [j.correct for j in judged] == [True, True]
        assert not big.done()  # served first-come, it would have waited for all of it
        await big
        return small_s, time.monotonic() - started

    small_s, large_s = asyncio.run(both())
    # Round-robin: the small request waits for one chunk of the large one, not all of it.
    assert small_s < large_s / 2, (small_s, large_s)


def test_fair_wait_counts_each_open_request_up_to_the_new_ones_size(
    workers: MathWorkers,
) -> None:
    assert workers.fair_wait_s(10) == pytest.approx(10 * workers.item_s / workers.workers)


def test_a_replica_under_a_large_batch_stays_live_and_shares_its_workers() -> None:
    """A batch of unique symbolic items, longer than the batch budget, to a replica of two
    workers, while /health, /ready and a small client's batches are sent: none is refused
    or starved, and no large item times out waiting (math has no batch budget)."""
    large = [
        {
            "task": "math",
            "completion": f"\\boxed{{\\frac{{{n}}}{{\\sqrt{{3}}}}\\cos 2x}}",
            "reference": f"\\frac{{{n}\\sqrt{{3}}}}{{3}}\\cos(2x)" if n % 3 else f"{n}\\cos(2x)",
        }
        for n in range(1, 121)
    ]
    small = [
        {"task": "math", "completion": f"\\boxed{{{n}/2}}", "reference": f"{n / 2}"}
        for n in range(4)
    ]
    # A budget the large batch outlasts on a fast machine too (it takes about a second).
    env = {"VERIFIER_MATH_WORKERS": "2", "VERIFIER_BATCH_TIMEOUT_S": "0.2"}
    with running_service(env) as url, httpx.Client(base_url=url, timeout=300) as client:
        outcome: dict[str, Any] = {}

        def send_large() -> None:
            started = time.monotonic()
            outcome["response"] = httpx.post(f"{url}/score", json={"items": large}, timeout=300)
            outcome["seconds"] = time.monotonic() - started

        sender = threading.Thread(target=send_large)
        sender.start()
        health: list[float] = []
        small_s: list[float] = []
        ready: list[int] = []
        while sender.is_alive():
            sent = time.monotonic()
            assert client.get("/health").status_code == 200
            health.append(time.monotonic() - sent)
            ready.append(client.get("/ready").status_code)
            sent = time.monotonic()
            response = client.post("/score", json={"items": small})
            small_s.append(time.monotonic() - sent)
            assert response.status_code == 200, response.text
            assert [r["reward"] for r in response.json()["results"]] == [1.0] * 4
            time.sleep(0.05)
        sender.join()
    results = outcome["response"].json()["results"]
    assert outcome["seconds"] > 0.2  # longer than the batch budget, which math does not have
    assert [r["status"] for r in results] == ["ok"] * len(large)
    assert [r["reward"] for r in results] == [1.0 if n % 3 else -1.0 for n in range(1, 121)]
    assert len(small_s) >= 3, "the large batch ended before the small client got going"
    # Bounds 10x the goals (health 0.5 s, a small batch 2 s): a loaded machine passes them.
    assert max(health) < 5.0, health
    assert max(small_s) < 20.0, small_s
    assert set(ready) == {200}, ready
