"""``service.url: auto``: the reward service as a child process, ready, logging to the run."""

from __future__ import annotations

from pathlib import Path

import httpx

from trainer.local_service import local_service


def test_a_local_service_answers_and_keeps_its_log(tmp_path: Path) -> None:
    with local_service(startup_timeout_s=120, log_dir=tmp_path) as url:
        assert url.startswith("http://127.0.0.1:")
        assert httpx.get(f"{url}/health", timeout=10).status_code == 200
    log = (tmp_path / "service.log").read_text()  # kept with the run, not a temporary file
    # The service's own log: its start-up and one line per request, as docs/trainer.md says.
    assert "Application startup complete" in log
    assert "GET /health" in log
    # Stopped when the block exits.
    try:
        httpx.get(f"{url}/health", timeout=2)
    except httpx.TransportError:
        return
    raise AssertionError(f"{url} still answers after the block")
