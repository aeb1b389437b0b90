"""No server at all (a closed loopback port): errors per item, never an exception."""

from __future__ import annotations

import time

import pytest

from harness.service import free_port
from services.verifier import (
    BreakerState,
    ErrorKind,
    RubricRequest,
    VerifierClient,
    VerifierConfig,
    VerifyRequest,
)

pytestmark = pytest.mark.anyio


def _config(**overrides: object) -> VerifierConfig:
    base = {
        "url": f"http://127.0.0.1:{free_port()}",
        "model": "verifier",
        "retries": 1,
        "backoff_s": 0.01,
        "breaker_failures": 2,
        "breaker_reset_s": 30.0,
        "connect_timeout_s": 1.0,
    }
    return VerifierConfig(**{**base, **overrides})


async def test_dead_server_gives_unavailable_then_circuit_open() -> None:
    items = [VerifyRequest("q", "1", str(i)) for i in range(5)]
    async with VerifierClient(_config()) as client:
        first = await client.judge(items)
        assert [j.error_kind for j in first] == [ErrorKind.UNAVAILABLE] * 5
        assert all(j.probability is None and not j.cached for j in first)
        assert "ConnectError" in (first[0].error or "")
        assert client.transport.endpoints[0].breaker.state is BreakerState.OPEN
        started = time.monotonic()
        second = await client.judge(items)
        assert time.monotonic() - started < 0.5  # fails fast: no network while open
        assert [j.error_kind for j in second] == [ErrorKind.CIRCUIT_OPEN] * 5
        rubric = await client.grade_rubric([RubricRequest("q", "r")])
        assert rubric[0].score is None and rubric[0].error_kind is ErrorKind.CIRCUIT_OPEN
        ok, detail = await client.health()
        assert not ok and "unreachable" in detail and "breaker open" in detail


async def test_round_robin_skips_an_open_endpoint() -> None:
    dead_a, dead_b = (f"http://127.0.0.1:{free_port()}" for _ in range(2))
    config = _config(url=f"{dead_a},{dead_b}", retries=3, breaker_failures=1)
    async with VerifierClient(config) as client:
        await client.judge([VerifyRequest("q", "r", "a")])
        sent = client.transport.requests_sent
        # One attempt each, then both breakers are open: the other 2 retries never go out.
        assert sum(sent.values()) == 2
        assert all(e.breaker.state is BreakerState.OPEN for e in client.transport.endpoints)


async def test_empty_batch_makes_no_request() -> None:
    async with VerifierClient(_config()) as client:
        assert await client.judge([]) == []
        assert await client.grade_rubric([]) == []
        assert not client.transport.requests_sent
