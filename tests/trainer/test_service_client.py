"""Retries against a real service that goes away and comes back (or never does)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from harness import service as service_process
from services.contract.http_policy import HttpPolicy
from services.contract.protocol import ScoreResult
from trainer.config import RewardSection, ServiceSection
from trainer.service_client import AsyncServiceClient, ClientSettings, RewardServiceError

ITEMS = [{"task": "math", "completion": "\\boxed{4}", "reference": "4"}]
OPTIONS = RewardSection().options()


@contextmanager
def service_on(port: int) -> Iterator[str]:
    """The real service, on a port the test chose (so it can come back at the same URL)."""
    service = service_process.ServiceProcess(port=port)
    try:
        service.start()
        service.wait_ready()
        yield service.url
    finally:
        service.stop()


def score(url: str, **policy: Any) -> list[ScoreResult]:
    client = AsyncServiceClient(ClientSettings(urls=(url,), **policy))

    async def run() -> list[ScoreResult]:
        try:
            return await client.score(ITEMS, OPTIONS)
        finally:
            await client.aclose()

    return asyncio.run(run())


# About 4 minutes of retries: a restart on 2 busy cores has taken over 30 s.
RESTART_RETRIES = 240


@pytest.mark.timeout(900)
def test_retries_until_the_service_is_back(caplog: pytest.LogCaptureFixture) -> None:
    port = service_process.free_port()
    with service_on(port) as url:
        assert score(url)[0].reward == 1.0
    # Stopped. A call made now keeps retrying while the service restarts on the same port.
    outcome: dict[str, Any] = {}

    def call() -> None:
        started = time.monotonic()
        try:
            outcome["results"] = score(
                url,
                retries=RESTART_RETRIES,
                backoff_s=0.2,
                backoff_max_s=1.0,
                connect_timeout_s=1.0,
            )
        except Exception as exc:  # reported by the assertion below
            outcome["error"] = exc
        outcome["seconds"] = time.monotonic() - started

    caplog.set_level(logging.WARNING, logger="services.contract.client.http")
    worker = threading.Thread(target=call)
    worker.start()
    time.sleep(1.0)  # let it fail a few times first
    with service_on(port):
        worker.join(timeout=RESTART_RETRIES * 2)
    assert not worker.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert outcome["results"][0].reward == 1.0
    retries = [r for r in caplog.records if "retrying" in r.getMessage()]
    assert len(retries) >= 2, "the call should have failed and retried before the restart"


def test_fails_clearly_when_the_service_never_returns() -> None:
    url = f"http://127.0.0.1:{service_process.free_port()}"  # nothing listens here
    started = time.monotonic()
    with pytest.raises(RewardServiceError, match=r"unreachable after 3 attempts") as error:
        score(url, retries=2, backoff_s=0.1, backoff_max_s=0.2)
    assert url in str(error.value)
    assert time.monotonic() - started < 10


def test_failover_to_the_next_url(service_url: str) -> None:
    dead = f"http://127.0.0.1:{service_process.free_port()}"
    client = AsyncServiceClient(ClientSettings(urls=(dead, service_url), retries=1, backoff_s=0.05))

    async def run() -> list[list[ScoreResult]]:
        try:
            return [await client.score(ITEMS, OPTIONS) for _ in range(4)]
        finally:
            await client.aclose()

    # Every call succeeds: an attempt that lands on the dead URL moves on to the live one.
    assert all(results[0].reward == 1.0 for results in asyncio.run(run()))


def test_the_service_section_makes_the_clients_policy() -> None:
    settings = ClientSettings.from_section(ServiceSection(url=["http://a:1", "http://b:2"]))
    assert isinstance(settings, HttpPolicy)
    assert settings.urls == ("http://a:1", "http://b:2")
    # The section's policy is taken whole: every field, busy_wait_s too.
    section = ServiceSection.model_validate(
        {"retries": 2, "backoff_s": 0.1, "timeout_s": 30, "busy_wait_s": 7}
    )
    settings = ClientSettings.from_section(section)
    policy = {field.name: getattr(settings, field.name) for field in dataclasses.fields(HttpPolicy)}
    assert HttpPolicy(**policy) == section.http
    assert settings.timeout() == httpx.Timeout(30.0, connect=HttpPolicy().connect_timeout_s)
    assert settings.attempts == 3
    assert settings.backoff_bounds(2) == pytest.approx((0.2, 0.3))
    assert settings.busy_wait_s == 7
    # Attempt n of a chunk goes to the URL after the one attempt n - 1 used.
    many = ClientSettings(urls=("http://a", "http://b", "http://c"))
    assert [many.url(1, n) for n in (1, 2, 3, 4)] == [
        "http://b",
        "http://c",
        "http://a",
        "http://b",
    ]


def test_the_key_comes_from_the_section_else_verifier_api_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VERIFIER_API_KEY", "from-env")
    assert ClientSettings.from_section(ServiceSection()).headers() == {
        "Authorization": "Bearer from-env"
    }
    section = ServiceSection(api_key="from-config")
    assert ClientSettings.from_section(section).api_key == "from-config"
    monkeypatch.setenv("VERIFIER_API_KEY", "")
    assert ClientSettings.from_section(ServiceSection()).headers() == {}
