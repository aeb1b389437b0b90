"""Liveness, readiness and metrics, in-process with the app's real backends."""

from __future__ import annotations

from fastapi.testclient import TestClient

from services.version import VERSION


def test_health_is_open_and_names_the_version(app_client: TestClient) -> None:
    response = app_client.get("/health")  # no key: liveness is never behind auth
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": VERSION}


def test_ready_reports_each_backend_and_what_is_required(app_client: TestClient) -> None:
    response = app_client.get("/ready")
    body = response.json()
    assert response.status_code == (200 if body["ready"] else 503)
    assert body["required"] == ["math"]
    assert body["backends"]["math"]["ok"] is True
    assert {"sandbox", "q", "llm_verifier"} <= set(body["backends"])
    assert body["backends"]["llm_verifier"]["ok"] is False  # no URL configured
    assert response.content.startswith(b'{"ready":')  # the service's compact JSON


def test_metrics_are_prometheus_text(app_client: TestClient) -> None:
    app_client.get("/health")
    response = app_client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "# TYPE" in response.text
