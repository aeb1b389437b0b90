"""The Ray Serve replica's own logic, without a cluster: worker sizing and the start check.

tests/deploy/test_ray.py runs the deployment itself on a simulated Ray cluster.
"""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")

from services.app import create_app
from services.ray_deployment import ReplicaNotReady, ready_gated, replica_settings, workers_for
from services.settings import Settings


@pytest.mark.parametrize(
    ("num_cpus", "workers"), [(0.25, 1), (0.5, 1), (1, 1), (1.5, 1), (2, 2), (3.9, 3), (16, 16)]
)
def test_one_worker_of_each_kind_per_whole_cpu(num_cpus: float, workers: int) -> None:
    assert workers_for(num_cpus) == workers


def test_worker_counts_follow_the_replica_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERIFIER_MATH_WORKERS", raising=False)
    monkeypatch.delenv("VERIFIER_SANDBOX_WORKERS", raising=False)
    settings = replica_settings(4)
    assert settings.math_workers == 4
    assert settings.sandbox.workers == 4


def test_explicit_worker_counts_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_MATH_WORKERS", "3")
    monkeypatch.setenv("VERIFIER_SANDBOX_WORKERS", "5")
    settings = replica_settings(2)
    assert (settings.math_workers, settings.sandbox.workers) == (3, 5)


def test_blank_counts_are_sized_and_other_settings_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sizing the sandbox section must not drop the section's other variables.
    monkeypatch.setenv("VERIFIER_SANDBOX_ISOLATION", "none")
    monkeypatch.setenv("VERIFIER_SANDBOX_TMPFS_MB", "32")
    monkeypatch.setenv("VERIFIER_MATH_TIMEOUT_S", "7")
    monkeypatch.setenv("VERIFIER_MATH_WORKERS", "")
    monkeypatch.setenv("VERIFIER_SANDBOX_WORKERS", "")
    settings = replica_settings(2)
    assert (settings.math_workers, settings.sandbox.workers) == (2, 2)
    assert settings.sandbox.isolation == "none"
    assert settings.sandbox.tmpfs_mb == 32
    assert settings.math_timeout_s == 7


async def _check_started(settings: Settings, timeout_s: float = 60) -> None:
    """Start the app as a Serve replica does (its lifespan, gated on readiness), and stop it."""
    app = ready_gated(create_app(settings), timeout_s)
    async with app.router.lifespan_context(app):
        pass


def test_replica_start_check_names_a_sandbox_that_cannot_run() -> None:
    # A node without bubblewrap: the replica must not start, and say why.
    settings = Settings(math_workers=1, sandbox={"workers": 1, "bwrap": "/nonexistent/bwrap"})
    with pytest.raises(ReplicaNotReady, match="sandbox") as failure:
        asyncio.run(_check_started(settings, timeout_s=2))
    assert "bubblewrap (/nonexistent/bwrap) is not installed" in str(failure.value)


def test_replica_start_check_covers_only_required_backends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No LLM verifier is configured: that matters only where the operator requires one.
    monkeypatch.delenv("VERIFIER_LLM_URL", raising=False)
    asyncio.run(_check_started(Settings(math_workers=1, sandbox={"workers": 1})))
    required = Settings(math_workers=1, sandbox={"workers": 1}, required_backends="llm_verifier")
    with pytest.raises(ReplicaNotReady, match="'llm_verifier'"):
        asyncio.run(_check_started(required, timeout_s=2))
