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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from harness.service import running_service
from services.admission import Admission, Backend, Saturated
from trainer.adapters.verl_reward import compute_score_batch
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

    # A program text of its own each time: a repeat would be answered from the run cache.
    spinner = SPINNER.replace("pass", f"pass  # {uuid.uuid4().hex}")

    def send() -> None:
        body = {"items": [_code(spinner) for _ in range(BOUND)]}
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
    caplog.set_level(logging.WARNING, logger="trainer.service_client")
    items = [_code(ONE, 5.0) for _ in range(6)] + [
        {"task": "math", "completion": f"\\boxed{{{n}}}", "reference": str(n)} for n in range(6)
    ]
    # retries=0: only 429s may be retried here, and they use up no attempt.
    client = AsyncServiceClient(ClientSettings(urls=(url,), retries=0, backoff_s=0.1))

    async def score() -> list[dict[str, Any]]:
        try:
            return await client.score(items, {})
        finally:
            await client.aclose()

    with saturated(url):
        results = asyncio.run(score())
    assert [r["reward"] for r in results] == [2.0] * 6 + [1.0] * 6
    busy = [r for r in caplog.records if "HTTP 429" in r.getMessage()]
    assert busy, "the client should have been refused at least once"


def test_the_verl_adapter_retries_through_429(url: str) -> None:
    with saturated(url):
        started = time.monotonic()
        scores = compute_score_batch(
            ["apps"], [ONE], [None], [{"tests": [{"code": "assert f() == 1"}]}], url=url
        )
        waited = time.monotonic() - started
    assert scores[0]["score"] == 2.0 and scores[0]["tests_passed"] == 1.0
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
