"""The verifier's transport against real HTTP servers on loopback: what it sends, what it
retries, when its breaker opens, and how it fails over between servers."""

from __future__ import annotations

from typing import Any

import pytest

from services.verifier.config import VerifierConfig
from services.verifier.transport import CallError, Transport
from services.verifier.types import ErrorKind
from tests.scripted_server import serving

pytestmark = pytest.mark.anyio


def _config(url: str, **overrides: Any) -> VerifierConfig:
    fast = {"retries": 2, "backoff_s": 0.0, "backoff_max_s": 0.0, "connect_timeout_s": 1.0}
    return VerifierConfig.model_validate({"url": url, **fast, **overrides})


async def test_sends_the_api_key_and_the_extra_headers() -> None:
    with serving([(200, {"ok": True})]) as server:
        config = _config(server.url, api_key="sk-test", extra_headers={"X-Team": "rl"})
        transport = Transport(config)
        try:
            assert await transport.request("POST", "/v1/completions", {"prompt": "p"}) == {
                "ok": True
            }
        finally:
            await transport.aclose()
    path, headers = server.seen[0]
    assert path == "/v1/completions"
    assert headers["Authorization"] == "Bearer sk-test"
    assert headers["X-Team"] == "rl"


async def test_a_5xx_is_retried_and_a_4xx_is_not() -> None:
    with serving([(503, {"error": "busy"}), (200, {"ok": 1})]) as server:
        transport = Transport(_config(server.url))
        try:
            assert await transport.request("GET", "/v1/models") == {"ok": 1}
        finally:
            await transport.aclose()
    assert len(server.seen) == 2

    with serving([(400, {"error": {"message": "bad prompt"}})]) as server:
        transport = Transport(_config(server.url))
        try:
            with pytest.raises(CallError) as caught:
                await transport.request("POST", "/v1/completions", {})
        finally:
            await transport.aclose()
    assert caught.value.kind is ErrorKind.REJECTED and "bad prompt" in caught.value.detail
    assert len(server.seen) == 1


async def test_the_policy_timeout_bounds_a_request() -> None:
    with serving([(200, {"late": True})], delay_s=1.0) as server:
        transport = Transport(_config(server.url, timeout_s=0.2, retries=0))
        try:
            with pytest.raises(CallError) as caught:
                await transport.request("GET", "/v1/models")
        finally:
            await transport.aclose()
    assert caught.value.kind is ErrorKind.TIMEOUT and "0.2s" in caught.value.detail


async def test_failed_attempts_open_the_breaker_and_fail_fast() -> None:
    with serving([(500, {"error": "down"})]) as server:
        config = _config(server.url, retries=0, breaker_failures=2, breaker_reset_s=60.0)
        transport = Transport(config)
        try:
            for _ in range(2):
                with pytest.raises(CallError) as caught:
                    await transport.request("GET", "/v1/models")
                assert caught.value.kind is ErrorKind.UNAVAILABLE
            with pytest.raises(CallError) as caught:
                await transport.request("GET", "/v1/models")
        finally:
            await transport.aclose()
    assert caught.value.kind is ErrorKind.CIRCUIT_OPEN
    assert len(server.seen) == 2  # the open breaker sent nothing


async def test_a_retry_goes_to_the_next_server() -> None:
    with (
        serving([(503, {"error": "down"})]) as dead,
        serving([(200, {"from": "live"})]) as live,
    ):
        transport = Transport(_config(f"{dead.url},{live.url}", retries=1))
        try:
            assert await transport.request("GET", "/v1/models") == {"from": "live"}
        finally:
            await transport.aclose()
    assert (len(dead.seen), len(live.seen)) == (1, 1)


async def test_a_non_json_answer_is_a_bad_response() -> None:
    with serving([(200, b"<html>proxy error</html>")]) as server:
        transport = Transport(_config(server.url))
        try:
            with pytest.raises(CallError) as caught:
                await transport.request("GET", "/v1/models")
        finally:
            await transport.aclose()
    assert caught.value.kind is ErrorKind.BAD_RESPONSE
    assert len(server.seen) == 1  # a body will not improve by asking again


def test_a_config_without_a_url_makes_no_transport() -> None:
    with pytest.raises(ValueError, match="at least one URL"):
        Transport(VerifierConfig())
