"""The HTTP policy: its backoff schedule, what it retries, and retries against real sockets."""

from __future__ import annotations

import asyncio
import time
from contextlib import AbstractContextManager
from typing import Any

import httpx
import pytest
from tenacity import RetryCallState, Retrying

from harness.service import free_port
from services.contract.http_policy import (
    HttpPolicy,
    RetryableStatus,
    is_retryable_status,
    is_transient,
    retry_after_s,
)
from services.verifier.config import VERIFIER_HTTP, VerifierConfig
from tests.scripted_server import ScriptedServer, serving

FAST = HttpPolicy(retries=3, backoff_s=0.0, backoff_max_s=0.0)


def test_backoff_doubles_up_to_the_cap_plus_jitter() -> None:
    policy = HttpPolicy(backoff_s=0.5, backoff_max_s=10.0)
    bounds = [policy.backoff_bounds(n) for n in range(1, 8)]
    assert bounds == [
        (0.5, 1.0),
        (1.0, 1.5),
        (2.0, 2.5),
        (4.0, 4.5),
        (8.0, 8.5),
        (10.0, 10.5),
        (10.0, 10.5),
    ]


def test_the_waits_tenacity_draws_follow_the_schedule() -> None:
    policy = HttpPolicy(backoff_s=0.25, backoff_max_s=4.0)
    wait = policy.wait()
    state = RetryCallState(Retrying(), None, (), {})
    for attempt in range(1, 9):
        state.attempt_number = attempt
        low, high = policy.backoff_bounds(attempt)
        draws = [wait(state) for _ in range(200)]
        assert all(low <= draw <= high for draw in draws), (attempt, min(draws), max(draws))
        assert max(draws) - min(draws) > 0.1 * policy.backoff_s  # the jitter is really there


def _response(status: int) -> httpx.Response:
    return httpx.Response(status, request=httpx.Request("POST", "http://h/score"), text="busy")


@pytest.mark.parametrize(
    "error",
    [
        httpx.ConnectError("refused"),
        httpx.ReadTimeout("slow"),
        httpx.RemoteProtocolError("closed mid-response"),
        TimeoutError(),
        RetryableStatus(_response(503)),
    ],
    ids=type,
)
def test_transient_errors_retry(error: BaseException) -> None:
    assert is_transient(error)


@pytest.mark.parametrize(
    "error", [ValueError("bad JSON"), RuntimeError("refused the batch"), KeyError("results")]
)
def test_other_errors_do_not(error: BaseException) -> None:
    assert not is_transient(error)


def test_only_5xx_and_429_statuses_retry() -> None:
    assert [code for code in (200, 400, 401, 404, 413, 422) if is_retryable_status(code)] == []
    assert all(is_retryable_status(code) for code in (429, 500, 502, 503, 504))


def _busy(retry_after: str | None) -> RetryableStatus:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    request = httpx.Request("POST", "http://h/score")
    return RetryableStatus(httpx.Response(429, request=request, headers=headers, text="full"))


def test_retry_after_replaces_the_backoff() -> None:
    policy = HttpPolicy(backoff_s=0.25, backoff_max_s=4.0)
    wait = policy.wait()
    state = RetryCallState(Retrying(), None, (), {})
    state.attempt_number = 6  # the backoff alone would be 4 s
    state.set_exception((RetryableStatus, _busy("2"), None))
    draws = [wait(state) for _ in range(100)]
    assert all(2.0 <= draw <= 2.25 for draw in draws)
    state.set_exception((RetryableStatus, _busy("soon"), None))  # unreadable: the backoff
    assert all(4.0 <= wait(state) <= 4.25 for _ in range(100))
    assert retry_after_s("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past


def test_429_answers_use_up_no_attempt() -> None:
    seen: list[int] = []

    def attempt(number: int) -> int:
        seen.append(number)
        if number <= 6:
            raise _busy("0")
        if number == 7:
            raise RetryableStatus(_response(503))
        return number

    # One retry allowed: six 429s, then one 503, then success.
    assert HttpPolicy(retries=1, backoff_s=0.0, backoff_max_s=0.0).call_sync(attempt) == 8
    assert seen == list(range(1, 9))


def test_waiting_on_429s_stops_after_busy_wait_s() -> None:
    policy = HttpPolicy(retries=0, backoff_s=0.0, backoff_max_s=0.0, busy_wait_s=0.3)

    def attempt(_: int) -> None:
        time.sleep(0.05)
        raise _busy("0")

    started = time.monotonic()
    with pytest.raises(RetryableStatus, match="429"):
        policy.call_sync(attempt)
    assert 0.3 <= time.monotonic() - started < 5


def test_call_tries_retries_plus_one_times_and_raises_the_last_error() -> None:
    seen: list[int] = []
    hooks: list[tuple[int, str, float]] = []

    def attempt(number: int) -> str:
        seen.append(number)
        raise httpx.ConnectError(f"refused #{number}")

    with pytest.raises(httpx.ConnectError, match="refused #4"):
        FAST.call_sync(attempt, before_retry=lambda n, e, d: hooks.append((n, str(e), d)))
    assert seen == [1, 2, 3, 4]
    assert hooks == [(1, "refused #1", 0.0), (2, "refused #2", 0.0), (3, "refused #3", 0.0)]


def test_call_returns_once_an_attempt_succeeds() -> None:
    async def attempt(number: int) -> int:
        if number < 3:
            raise RetryableStatus(_response(502))
        return number

    assert asyncio.run(FAST.call(attempt)) == 3


def test_a_non_transient_error_is_raised_at_once() -> None:
    seen: list[int] = []

    def attempt(number: int) -> None:
        seen.append(number)
        raise ValueError("not JSON")

    with pytest.raises(ValueError, match="not JSON"):
        FAST.call_sync(attempt)
    assert seen == [1]


def test_retry_if_narrows_what_is_retried() -> None:
    seen: list[int] = []

    async def attempt(number: int) -> None:
        seen.append(number)
        raise httpx.ConnectError("refused")

    with pytest.raises(httpx.ConnectError):
        asyncio.run(FAST.call(attempt, retry_if=lambda error: False))
    assert seen == [1]


@pytest.mark.parametrize(
    "bad",
    [{"timeout_s": 0}, {"connect_timeout_s": -1}, {"retries": -1}, {"backoff_s": -0.1}],
    ids=str,
)
def test_invalid_policies_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        HttpPolicy(**bad)


def test_the_verifier_config_makes_its_policy() -> None:
    config = VerifierConfig(url="http://v:8000", retries=7, timeout_s=9.0)
    assert config.http == HttpPolicy(
        connect_timeout_s=VERIFIER_HTTP.connect_timeout_s,
        timeout_s=9.0,
        retries=7,
        backoff_s=VERIFIER_HTTP.backoff_s,
        backoff_max_s=VERIFIER_HTTP.backoff_max_s,
    )
    assert VerifierConfig(url="http://v:8000").http == VERIFIER_HTTP


def _serving(statuses: list[int]) -> AbstractContextManager[ScriptedServer]:
    """A server answering each POST with the next status (the last one repeats)."""
    return serving([(s, {"ok": True} if s == 200 else {"error": "scripted"}) for s in statuses])


def _post_through(policy: HttpPolicy, url: str) -> httpx.Response:
    with httpx.Client(timeout=policy.timeout()) as http:

        def attempt(_: int) -> httpx.Response:
            response = http.post(url, json={})
            if is_retryable_status(response.status_code):
                raise RetryableStatus(response)
            return response

        return policy.call_sync(attempt)


def test_real_503s_are_retried_until_the_server_answers() -> None:
    with _serving([503, 502, 200]) as server:
        port = server.server_address[1]
        response = _post_through(FAST, f"http://127.0.0.1:{port}/score")
        assert response.status_code == 200 and server.requests == 3


def test_a_real_4xx_is_not_retried() -> None:
    with _serving([422, 200]) as server:
        port = server.server_address[1]
        assert _post_through(FAST, f"http://127.0.0.1:{port}/score").status_code == 422
        assert server.requests == 1


def test_a_real_refused_connection_is_retried_then_raised() -> None:
    url = f"http://127.0.0.1:{free_port()}/score"  # nothing listens here
    attempts: list[int] = []

    def attempt(number: int) -> httpx.Response:
        attempts.append(number)
        return httpx.post(url, timeout=1.0)

    with pytest.raises(httpx.ConnectError):
        FAST.call_sync(attempt)
    assert attempts == [1, 2, 3, 4]
