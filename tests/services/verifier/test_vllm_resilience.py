"""API-key auth, and a vLLM crash mid-batch followed by a restart (the package's server,
which takes a key; it is running again when the restart test ends, pass or fail)."""

from __future__ import annotations

import asyncio
import time

import pytest

from harness.vllm import VLLMServer
from services.verifier import (
    BreakerState,
    CircuitBreaker,
    ErrorKind,
    VerifierClient,
    VerifierConfig,
    VerifyRequest,
)

pytestmark = pytest.mark.anyio

ITEMS = [VerifyRequest(f"What is {i} * 3?", str(3 * i), str(3 * i + i % 3)) for i in range(64)]


def _config(server: VLLMServer, api_key: str | None, **overrides: object) -> VerifierConfig:
    base = {"url": server.url, "model": server.model, "api_key": api_key}
    return VerifierConfig(**{**base, **overrides})


async def test_api_key_works_and_its_absence_is_a_clear_error(
    vllm_server: VLLMServer,
) -> None:
    server = vllm_server
    async with VerifierClient(_config(server, server.api_key)) as client:
        assert all(j.ok for j in await client.judge(ITEMS[:3]))
        assert (await client.health())[0]
    for key in (None, "wrong-key"):
        async with VerifierClient(_config(server, key)) as client:
            results = await client.judge(ITEMS[:3])
            for judgement in results:
                assert judgement.error_kind is ErrorKind.REJECTED
                assert "HTTP 401" in (judgement.error or "")
                assert "API key" in (judgement.error or "")
            # 4xx is not retried and does not open the breaker: the server is alive.
            # (/tokenize and /detokenize answered: vLLM 0.32's --api-key guards /v1/* only.)
            assert client.transport.requests_sent["/v1/completions"] == 1
            assert _state(client.transport.endpoints[0].breaker) is BreakerState.CLOSED
            ok, detail = await client.health()
            assert not ok and "401" in detail and "API key" in detail


async def test_kill_mid_batch_then_restart_recovers(vllm_server: VLLMServer) -> None:
    server = vllm_server
    config = _config(
        server,
        server.api_key,
        max_batch=16,
        max_concurrency=2,
        retries=1,
        backoff_s=0.1,
        breaker_failures=2,
        breaker_reset_s=1.0,
        timeout_s=120.0,
    )
    try:
        await _kill_and_restart(server, config)
    finally:
        await asyncio.to_thread(server.start)  # a no-op where it runs: for the tests after


async def _kill_and_restart(server: VLLMServer, config: VerifierConfig) -> None:
    async with VerifierClient(config) as client:
        assert (await client.judge(ITEMS[:1]))[0].ok  # chat format and label ids learned
        batch = asyncio.create_task(client.judge(ITEMS[1:]))
        await asyncio.sleep(0.5)  # chunks of 16 take seconds on CPU: they are in flight
        await asyncio.to_thread(server.kill)
        results = await batch  # no exception escapes
        assert len(results) == len(ITEMS) - 1
        kinds = {j.error_kind for j in results}
        assert all(j.probability is None and j.error for j in results), kinds
        assert kinds <= {ErrorKind.UNAVAILABLE, ErrorKind.CIRCUIT_OPEN}
        breaker = client.transport.endpoints[0].breaker
        assert _state(breaker) is BreakerState.OPEN

        started = time.monotonic()
        refused = await client.judge([VerifyRequest("q", "r", "fresh")])
        assert refused[0].error_kind in (ErrorKind.CIRCUIT_OPEN, ErrorKind.UNAVAILABLE)
        assert time.monotonic() - started < 5

        await asyncio.to_thread(server.start)  # same port; the client is not told
        await asyncio.sleep(config.breaker_reset_s)
        recovered = await client.judge(ITEMS[1:5])  # one chunk: the half-open probe
        assert all(j.ok for j in recovered), [j.error for j in recovered]
        assert _state(breaker) is BreakerState.CLOSED
        assert all(j.ok for j in await client.judge(ITEMS[5:40]))
        assert (await client.health())[0]


def _state(breaker: CircuitBreaker) -> BreakerState:
    """Read through a call: mypy would otherwise narrow ``breaker.state`` across mutations."""
    return breaker.state
