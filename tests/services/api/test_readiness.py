"""``/ready`` answers 200 only when every required backend works.

The sandbox is broken for real: ``VERIFIER_SANDBOX_BWRAP`` names a bubblewrap binary that
does not exist, as on a host or image without bubblewrap. The LLM verifier URL is a
loopback port nobody listens on.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from pydantic import ValidationError

from harness.service import free_port
from services.launcher import ServiceProcess, wait_until_ready
from services.settings import Settings

NO_BWRAP = {"VERIFIER_SANDBOX_BWRAP": "/nonexistent/bwrap", "VERIFIER_MATH_WORKERS": "1"}


def _live(env: dict[str, str]) -> Iterator[str]:
    """The service started and answering /health, whatever /ready says."""
    service = ServiceProcess(env)
    try:
        service.start()
        assert service.process is not None
        wait_until_ready(service.process, f"{service.url}/health", 90, service.log_tail)
        yield service.url
    finally:
        service.stop()


@pytest.fixture(scope="module")
def without_sandbox() -> Iterator[str]:
    yield from _live(NO_BWRAP)


def test_a_replica_that_cannot_run_code_is_not_ready(without_sandbox: str) -> None:
    response = httpx.get(f"{without_sandbox}/ready", timeout=30)
    assert response.status_code == 503
    body = response.json()
    assert body["ready"] is False
    assert body["required"] == ["math", "sandbox", "canaries"]
    assert body["backends"]["math"]["ok"] is True
    assert body["backends"]["sandbox"]["ok"] is False
    assert "bubblewrap" in body["backends"]["sandbox"]["detail"]
    # Math still scores on such a replica; only the routing decision changes.
    item = {"task": "math", "completion": "\\boxed{4}", "reference": "4"}
    scored = httpx.post(f"{without_sandbox}/score", json={"items": [item]}, timeout=60)
    assert scored.json()["results"][0]["reward"] == 1.0


def test_requiring_only_math_keeps_such_a_replica_ready() -> None:
    for url in _live({**NO_BWRAP, "VERIFIER_REQUIRED_BACKENDS": "math"}):
        response = httpx.get(f"{url}/ready", timeout=30)
        assert response.status_code == 200
        assert response.json()["required"] == ["math"]
        assert response.json()["backends"]["sandbox"]["ok"] is False


def test_a_required_llm_verifier_that_is_down_makes_the_replica_unready() -> None:
    env = {
        "VERIFIER_LLM_URL": f"http://127.0.0.1:{free_port()}",
        "VERIFIER_REQUIRED_BACKENDS": "math, sandbox, llm_verifier",
        "VERIFIER_MATH_WORKERS": "1",
    }
    for url in _live(env):
        response = httpx.get(f"{url}/ready", timeout=30)
        assert response.status_code == 503
        body = response.json()
        assert body["required"] == ["math", "sandbox", "llm_verifier"]
        assert body["backends"]["sandbox"]["ok"] is True
        assert body["backends"]["llm_verifier"]["ok"] is False


def test_required_backends_are_checked_names(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().required() == ("math", "sandbox", "canaries")
    monkeypatch.setenv("VERIFIER_REQUIRED_BACKENDS", " math,q ,math ")
    assert Settings().required() == ("math", "q")
    monkeypatch.setenv("VERIFIER_REQUIRED_BACKENDS", "math,gpu")
    with pytest.raises(ValidationError, match="unknown backends"):
        Settings()
