"""Backpressure: a replica whose sandbox queue is full answers 429 with Retry-After, says so
on /ready and /metrics, and the trainer's client and the verl adapter retry through it.

The queue is filled for real: one sandbox worker, a bound of four tests, and a request of
four programs that spin until their wall-clock timeout in the real (bubblewrap) sandbox.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from harness.service import running_service
from services.admission import Admission, Backend, Saturated
from services.contract.protocol import ScoreResult
from services.metrics import Metrics
from trainer.adapters.verl_reward import close_clients, compute_score_async, compute_score_batch
from trainer.service_client import AsyncServiceClient, ClientSettings

SPIN_S = 2.0
BOUND = 4
ENV = {
    "VERIFIER_SANDBOX_WORKERS": "1",
    "VERIFIER_QUEUED_TESTS_PER_WORKER": str(BOUND),
    "VERIFIER_MATH_WORKERS": "1",
    # The canaries would share the one worker; this replica is not asked to prove them.
    "VERIFIER_EXPLOIT_CANARY_INTERVAL_S": "0",
    "VERIFIER_REQUIRED_BACKENDS": "math,sandbox",
}
SPINNER = "```python\ndef f():\n    while True:\n        pass\n```"
ONE = "```python\ndef f():\n    return 1\n```"


def _fresh_one() -> str:
    """ONE as a text of its own: a program scored before is answered from the run cache,
    which no full queue holds back, so a test of waiting must send one never seen."""
    return ONE.replace("return 1", f"return 1  # {uuid.uuid4().hex}")


def _code(completion: str, timeout_s: float = SPIN_S) -> dict[str, Any]:
    return {
        "task": "code",
        "language": "python",
        "completion": completion,
        "timeout_s": timeout_s,
        "tests": [{"code": "assert f() == 1"}],
    }


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running_service(ENV) as base:
        yield base


def _metric(url: str, series: str) -> float:
    for line in httpx.get(f"{url}/metrics", timeout=10).text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    raise AssertionError(f"no {series} on /metrics")


def _depth(url: str) -> float:
    return _metric(url, 'verifier_queue_depth{backend="sandbox"}')


@contextmanager
def saturated(url: str) -> Iterator[dict[str, Any]]:
    """A request of BOUND spinning programs in flight (its response lands in the dict)."""
    outcome: dict[str, Any] = {}

    # A program text of its own each: a repeat would be answered from the run cache, and
    # repeats within a request run (and count) once.
    spinners = [SPINNER.replace("pass", f"pass  # {uuid.uuid4().hex}") for _ in range(BOUND)]

    def send() -> None:
        body = {"items": [_code(spinner) for spinner in spinners]}
        outcome["response"] = httpx.post(f"{url}/score", json=body, timeout=120)

    sender = threading.Thread(target=send)
    sender.start()
    deadline = time.monotonic() + 30
    while _depth(url) < BOUND:
        assert time.monotonic() < deadline, "the spinning request never filled the queue"
        time.sleep(0.05)
    try:
        yield outcome
    finally:
        sender.join(timeout=120)


def test_a_full_sandbox_queue_answers_429_and_leaves_rotation(url: str) -> None:
    refused_before = _metric(url, 'verifier_queue_refused_total{backend="sandbox"}')
    with saturated(url) as first:
        refused = httpx.post(f"{url}/score", json={"items": [_code(ONE)]}, timeout=30)
        typed = httpx.post(f"{url}/score/code", json={"items": [_code(ONE)]}, timeout=30)
        ready = httpx.get(f"{url}/ready", timeout=30)
        # Math has its own queue: a full sandbox does not hold it up.
        math_item = {"task": "math", "completion": "\\boxed{4}", "reference": "4"}
        math = httpx.post(f"{url}/score", json={"items": [math_item]}, timeout=30)
        assert _depth(url) == BOUND  # the refused requests added nothing
    for response in (refused, typed):
        assert response.status_code == 429, response.text
        assert int(response.headers["Retry-After"]) >= 1
        assert "sandbox queue full" in response.json()["detail"]
    assert ready.status_code == 503
    assert ready.json()["backends"]["queue"]["ok"] is False
    assert "saturated (sandbox)" in ready.json()["backends"]["queue"]["detail"]
    assert math.status_code == 200 and math.json()["results"][0]["reward"] == 1.0

    # The request that filled the queue was scored whole: every spinner timed out.
    results = first["response"].json()["results"]
    assert [r["components"]["tests_passed"] for r in results] == [0.0] * BOUND
    assert all("timeout" in r["detail"] for r in results), results[0]["detail"]
    after = httpx.get(f"{url}/ready", timeout=30)
    assert after.status_code == 200 and after.json()["backends"]["queue"]["ok"] is True
    assert _depth(url) == 0
    refused_now = _metric(url, 'verifier_queue_refused_total{backend="sandbox"}')
    assert refused_now == refused_before + 2
    assert _metric(url, 'verifier_requests_total{code="429",route="/score/code"}') >= 1
    assert _metric(url, 'verifier_queue_bound{backend="sandbox"}') == BOUND
    assert _metric(url, 'verifier_backend_seconds_count{backend="sandbox"}') >= 1


def test_get_reward_is_refused_whole_while_its_queue_is_full(url: str) -> None:
    tests = '{"inputs": ["1\\n"], "outputs": ["1\\n"]}'
    body = {"query": ["Q```python\nprint(input())\n```"], "prompts": ["Q"], "labels": [tests]}
    with saturated(url):
        refused = httpx.post(f"{url}/get_reward", json=body, timeout=30)
    assert refused.status_code == 429 and refused.headers["Retry-After"].isdigit()
    scored = httpx.post(f"{url}/get_reward", json=body, timeout=30)
    assert scored.status_code == 200 and scored.json()["rewards"] == [2.0]


def test_the_trainer_client_retries_through_429_and_loses_nothing(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="services.contract.client.http")
    items = [_code(ONE, 5.0) for _ in range(6)] + [
        {"task": "math", "completion": f"\\boxed{{{n}}}", "reference": str(n)} for n in range(6)
    ]
    # retries=0: only 429s may be retried here, and they use up no attempt.
    client = AsyncServiceClient(ClientSettings(urls=(url,), retries=0, backoff_s=0.1))

    async def score() -> list[ScoreResult]:
        try:
            return await client.score(items, {})
        finally:
            await client.aclose()

    with saturated(url):
        results = asyncio.run(score())
    assert [r.reward for r in results] == [2.0] * 6 + [1.0] * 6
    busy = [r for r in caplog.records if "HTTP 429" in r.getMessage()]
    assert busy, "the client should have been refused at least once"


def test_the_verl_adapter_retries_through_429(url: str) -> None:
    with saturated(url):
        started = time.monotonic()
        scores = compute_score_batch(
            ["apps"], [_fresh_one()], [None], [{"tests": [{"code": "assert f() == 1"}]}], url=url
        )
        waited = time.monotonic() - started
    assert scores[0]["score"] == 2.0 and scores[0]["tests_passed"] == 1.0
    assert waited > 0.5  # it was held back until the spinners finished


def test_the_verl_adapters_batched_path_retries_through_429(url: str) -> None:
    # compute_score_async's request of several samples, held back the same way.
    fresh = _fresh_one()

    async def step() -> list[Any]:
        calls = [compute_score_async("apps", fresh, None, {"tests": [{"code": "assert f() == 1"}]},
                                     url=url) for _ in range(3)]  # fmt: skip
        try:
            return list(await asyncio.gather(*calls))
        finally:
            await close_clients()

    with saturated(url):
        started = time.monotonic()
        scores = asyncio.run(step())
        waited = time.monotonic() - started
    assert [score["tests_passed"] for score in scores] == [1.0, 1.0, 1.0]
    assert waited > 0.5  # it was held back until the spinners finished


def test_a_request_is_admitted_or_refused_whole() -> None:
    admission = Admission({Backend.SANDBOX: 10, Backend.MATH: 0})
    with admission.admit({Backend.SANDBOX: 25}):  # alone and too big: admitted when idle
        assert admission.saturated() == [Backend.SANDBOX]
        with pytest.raises(Saturated), admission.admit({Backend.SANDBOX: 1, Backend.MATH: 5}):
            pass
        assert admission.in_flight(Backend.SANDBOX) == 25
        assert admission.in_flight(Backend.MATH) == 0  # nothing of the refused one held
        with admission.admit({Backend.MATH: 10_000}):  # no bound on math
            assert admission.in_flight(Backend.MATH) == 10_000
    assert admission.in_flight(Backend.SANDBOX) == 0 and admission.saturated() == []
    with admission.admit({Backend.SANDBOX: 6}), admission.admit({Backend.SANDBOX: 4}):
        assert admission.saturated() == [Backend.SANDBOX]
        assert admission.oldest_age_s(Backend.SANDBOX) >= 0


def test_retry_after_follows_recent_request_times() -> None:
    admission = Admission({Backend.SANDBOX: 1})
    assert admission.retry_after_s(Backend.SANDBOX) == 1
    for seconds in (2.2, 2.5, 9.0):
        admission.observe(Backend.SANDBOX, seconds)
    assert admission.retry_after_s(Backend.SANDBOX) == 3  # the median, rounded up
    for _ in range(3):
        admission.observe(Backend.SANDBOX, 500.0)
    assert admission.retry_after_s(Backend.SANDBOX) == 60  # capped


def test_a_long_wait_for_a_worker_fills_the_queue_whatever_its_count() -> None:
    waited = [0.0]
    admission = Admission(
        {Backend.SANDBOX: 1000}, waits={Backend.SANDBOX: lambda: waited[0]}, max_wait_s=2.0
    )
    with admission.admit({Backend.SANDBOX: 5}):
        waited[0] = 1.5
        with admission.admit({Backend.SANDBOX: 5}):  # within the bound: admitted
            pass
        waited[0] = 2.5
        assert admission.saturated() == [Backend.SANDBOX]
        assert "longest wait 2.5/2 s" in admission.describe()
        with (
            pytest.raises(Saturated, match=r"waited 2\.5 s for a worker"),
            admission.admit({Backend.SANDBOX: 1}),
        ):
            pass
        with admission.admit({Backend.MATH: 3}):  # other backends are not held back
            pass
    # Idle (nothing admitted), a request is let in whatever the wait says.
    with admission.admit({Backend.SANDBOX: 1}):
        pass


def test_no_wait_bound_without_max_wait() -> None:
    admission = Admission({Backend.SANDBOX: 0}, waits={Backend.SANDBOX: lambda: 99.0})
    with admission.admit({Backend.SANDBOX: 1}), admission.admit({Backend.SANDBOX: 1}):
        assert admission.saturated() == []


def test_a_long_wait_for_a_worker_answers_429_over_http() -> None:
    """Far below its test bound, a replica whose queue holds programs that run to their
    timeout refuses new code requests once one has waited past VERIFIER_MAX_QUEUE_WAIT_S."""
    env = ENV | {"VERIFIER_QUEUED_TESTS_PER_WORKER": "1000", "VERIFIER_MAX_QUEUE_WAIT_S": "0.5"}
    spinners = [
        _code(SPINNER.replace("pass", f"pass  # {uuid.uuid4().hex}"), 1.5) for _ in range(3)
    ]
    with running_service(env) as base:
        holder = threading.Thread(
            target=lambda: httpx.post(f"{base}/score", json={"items": spinners}, timeout=60)
        )
        holder.start()
        try:
            time.sleep(1.0)  # one spinner runs on the one worker, two wait behind it
            refused = httpx.post(f"{base}/score", json={"items": [_code(ONE)]}, timeout=30)
            ready = httpx.get(f"{base}/ready", timeout=30)
        finally:
            holder.join(timeout=60)
        later = httpx.post(f"{base}/score", json={"items": [_code(ONE)]}, timeout=30)
    assert refused.status_code == 429, refused.text
    assert "for a worker, the bound is 0.5 s" in refused.json()["detail"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert ready.status_code == 503
    assert later.status_code == 200 and later.json()["results"][0]["reward"] == 2.0


class _Meter:
    """A metered backend whose requests' worker-seconds the test sets by hand."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self.flows: list[list[float]] = []

    @contextmanager
    def metered(self) -> Iterator[Callable[[], float]]:
        used = [0.0]
        self.flows.append(used)
        yield lambda: used[0]


def _projected(meter: _Meter, bound: float = 3.0) -> Admission:
    return Admission(
        {Backend.SANDBOX: 1000}, meters={Backend.SANDBOX: meter}, max_projected_s=bound
    )


def test_before_any_cost_is_known_one_request_per_worker_is_admitted() -> None:
    meter = _Meter(workers=2)
    admission = _projected(meter, bound=3.0)
    with admission.admit({Backend.SANDBOX: 50}), admission.admit({Backend.SANDBOX: 50}):
        # Each is taken to hold a worker for the whole bound, whatever its size.
        assert admission.projected_s(Backend.SANDBOX) == pytest.approx(3.0)
        assert admission.saturated() == []
        with pytest.raises(Saturated), admission.admit({Backend.SANDBOX: 1}):
            pass
        meter.flows[0][0] = 2.0  # used before it finished: no cost per test yet
        with pytest.raises(Saturated), admission.admit({Backend.SANDBOX: 1}):
            pass
    with admission.admit({Backend.SANDBOX: 1}), admission.admit({Backend.SANDBOX: 1}):
        # 2 s for 100 tests, now known: 0.02 s a test; 12 tests over 2 workers.
        assert admission.projected_s(Backend.SANDBOX, 10) == pytest.approx(12 * 0.02 / 2)


def test_a_request_projected_past_the_bound_is_refused_at_once() -> None:
    meter = _Meter(workers=2)
    admission = _projected(meter, bound=3.0)
    with admission.admit({Backend.SANDBOX: 10}):  # a first request: 10 tests, 5 s of work
        meter.flows[-1][0] = 5.0
    # 0.5 worker-seconds a test from now on.
    with admission.admit({Backend.SANDBOX: 10}):  # 5 s of work ahead, over 2 workers
        assert admission.projected_s(Backend.SANDBOX) == pytest.approx(2.5)
        started = time.monotonic()
        with (
            pytest.raises(Saturated, match=r"done in about 3\.5 s, the bound is 3 s") as refused,
            admission.admit({Backend.SANDBOX: 4}),  # 7 s of work over 2 workers
        ):
            pass
        assert time.monotonic() - started < 0.1  # at once, not after a wait
        assert refused.value.retry_after_s == 1  # it would fit in about half a second
        assert len(meter.flows) == 2  # nothing of it was metered, nothing started
        assert admission.in_flight(Backend.SANDBOX) == 10
        with admission.admit({Backend.SANDBOX: 2}):  # 6 s over 2 workers: just fits
            assert admission.projected_s(Backend.SANDBOX) == pytest.approx(3.0)
            meter.flows[-1][0] = 1.0  # it too used half a second a test
        # What an admitted request has used is no longer ahead of a new one.
        meter.flows[1][0] = 4.0
        assert admission.projected_s(Backend.SANDBOX, 4) == pytest.approx(1.5)
        with admission.admit({Backend.SANDBOX: 4}):
            pass
        with admission.admit({Backend.MATH: 10_000}):  # math is not projected
            pass


def test_retry_after_a_projection_says_when_the_request_would_fit() -> None:
    meter = _Meter(workers=1)
    admission = _projected(meter, bound=2.0)
    with admission.admit({Backend.SANDBOX: 1}):
        meter.flows[-1][0] = 1.0  # one second a test
    with admission.admit({Backend.SANDBOX: 8}):
        with pytest.raises(Saturated) as refused, admission.admit({Backend.SANDBOX: 1}):
            pass
        assert refused.value.retry_after_s == 7  # 9 s projected, 2 s allowed
        assert admission.saturated() == [Backend.SANDBOX]
        assert "projected 8.0/2 s" in admission.describe()
    assert admission.saturated() == []


def test_a_request_larger_than_the_projection_bound_is_admitted_when_idle() -> None:
    meter = _Meter(workers=2)
    admission = _projected(meter, bound=3.0)
    with admission.admit({Backend.SANDBOX: 2}):
        meter.flows[-1][0] = 2.0  # one second a test
    with admission.admit({Backend.SANDBOX: 100}):  # 50 s projected, but nothing else runs
        assert admission.projected_s(Backend.SANDBOX) == pytest.approx(50.0)
    # The cost per test follows the recent requests: that one used little.
    assert admission.projected_s(Backend.SANDBOX, 10) == pytest.approx(10 * 2 / 102 / 2)


def test_the_projection_is_on_metrics() -> None:
    metrics = Metrics()
    meter = _Meter(workers=2)
    admission = Admission(
        {Backend.SANDBOX: 0}, metrics, meters={Backend.SANDBOX: meter}, max_projected_s=3.0
    )
    with admission.admit({Backend.SANDBOX: 4}):
        meter.flows[-1][0] = 2.0
    with admission.admit({Backend.SANDBOX: 6}):
        text = metrics.render().decode()
    assert 'verifier_queue_projected_seconds{backend="sandbox"} 1.5' in text
    assert 'verifier_queue_projected_seconds{backend="math"} 0.0' in text


def test_no_projection_bound_without_max_projected() -> None:
    meter = _Meter(workers=1)
    admission = Admission({Backend.SANDBOX: 0}, meters={Backend.SANDBOX: meter})
    with admission.admit({Backend.SANDBOX: 1}):
        pass
    assert meter.flows == []  # not metered at all
    with admission.admit({Backend.SANDBOX: 1}), admission.admit({Backend.SANDBOX: 100}):
        assert admission.projected_s(Backend.SANDBOX) == 0.0


def test_a_request_projected_past_the_bound_answers_429_at_once_over_http() -> None:
    """With the sandbox busy with spinners, a request that would be done only after the
    projection bound is refused at once, long before anything waited that long; on the idle
    sandbox an honest request is admitted, even one projected past the bound on its own."""
    env = ENV | {
        "VERIFIER_QUEUED_TESTS_PER_WORKER": "1000",
        "VERIFIER_MAX_QUEUE_WAIT_S": "0",  # the projection alone refuses here
        "VERIFIER_MAX_PROJECTED_WAIT_S": "2",
    }

    def spinners(n: int) -> list[dict[str, Any]]:
        return [
            _code(SPINNER.replace("pass", f"pass  # {uuid.uuid4().hex}"), 1.0) for _ in range(n)
        ]

    honest = [dict(_code(ONE), tests=[{"code": f"assert f() == 1  # {n}"}]) for n in range(4)]
    with running_service(env) as base:
        # A first request teaches the replica what a test costs: a spinner's timeout.
        calibration = httpx.post(f"{base}/score", json={"items": spinners(1)}, timeout=60)
        assert calibration.status_code == 200
        holder = threading.Thread(
            target=lambda: httpx.post(f"{base}/score", json={"items": spinners(3)}, timeout=60)
        )
        holder.start()
        try:
            deadline = time.monotonic() + 30
            while _depth(base) < 3:
                assert time.monotonic() < deadline, "the spinners were never admitted"
                time.sleep(0.05)
            projected = _metric(base, 'verifier_queue_projected_seconds{backend="sandbox"}')
            started = time.monotonic()
            refused = httpx.post(f"{base}/score", json={"items": [_code(ONE)]}, timeout=30)
            refused_in = time.monotonic() - started
            ready = httpx.get(f"{base}/ready", timeout=30)
        finally:
            holder.join(timeout=60)
        idle = httpx.post(f"{base}/score", json={"items": honest}, timeout=30)
        after = _metric(base, 'verifier_queue_projected_seconds{backend="sandbox"}')
    assert projected > 2.0  # three spinners' seconds ahead, on one worker
    assert refused.status_code == 429, refused.text
    assert refused_in < 1.0  # refused at once, not after a wait for a worker
    assert "would be done in about" in refused.json()["detail"]
    assert "the bound is 2 s" in refused.json()["detail"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert ready.status_code == 503
    # Idle: four tests, each costed at a spinner's second, still get in; all pass.
    assert idle.status_code == 200, idle.text
    assert [r["reward"] for r in idle.json()["results"]] == [2.0] * 4
    assert after == 0.0


def test_work_dearer_than_the_recent_counts_as_soon_as_it_is_used() -> None:
    meter = _Meter(workers=1)
    admission = _projected(meter, bound=3.0)
    with admission.admit({Backend.SANDBOX: 10}):  # reused runs: 0.01 s a test
        meter.flows[-1][0] = 0.1
    with admission.admit({Backend.SANDBOX: 4}):
        assert admission.projected_s(Backend.SANDBOX, 4) == pytest.approx(0.08)
        meter.flows[-1][0] = 2.0  # new programs: already 0.5 s a test, and still running
        # Costed at 0.5 s a test: nothing left of the admitted one, 2 s for the new one.
        assert admission.projected_s(Backend.SANDBOX, 4) == pytest.approx(2.0)
        with pytest.raises(Saturated), admission.admit({Backend.SANDBOX: 8}):
            pass


def test_math_is_refused_on_its_fair_share_not_on_the_work_ahead_of_it() -> None:
    # The workers are shared round-robin: each open request of 4,096 items delays a new
    # request of n items by at most n more items (0.01 s an item, 2 workers here).
    open_items = [4096]

    def fair(units: int) -> float:
        return (units + sum(min(n, units) for n in open_items)) * 0.01 / 2

    admission = Admission({Backend.MATH: 100_000}, fair={Backend.MATH: fair}, max_fair_s=5.0)
    with admission.admit({Backend.MATH: 4096}):  # the idle replica admits any request
        assert admission.saturated() == []
        with admission.admit({Backend.MATH: 64}):  # beside it: 0.64 s, admitted
            assert admission.in_flight(Backend.MATH) == 4160
        with pytest.raises(Saturated) as refused, admission.admit({Backend.MATH: 1000}):
            pass  # 10 s beside the large one: refused at once
        assert refused.value.retry_after_s == 5
        assert "would take about 10.0 s" in str(refused.value)
        open_items.append(4096)
        assert admission.saturated() == []  # a one-item request still fits: busy is not full
        open_items.extend([4096] * 1100)  # 1,102 requests open: one more item waits 5.5 s
        assert admission.saturated() == [Backend.MATH]
