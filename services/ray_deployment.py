"""The verifier as a Ray Serve application: the service's own FastAPI app in each replica.

``serve run deploy/ray/serve.yaml`` (``RAY_ADDRESS`` set to the cluster) or ``serve deploy``
of the same file deploys :data:`app` (``import_path: services.ray_deployment:app``); every
node has ``reward-verifier[ray]`` installed, so the module imports there as it does here.
Each replica builds the app with ``create_app`` from the same ``VERIFIER_*`` settings as
every other way of running the service; only the worker counts default to the CPUs Ray
gave the replica instead of the node's core count, which would oversubscribe a node
holding several replicas. Serve's HTTP proxy routes to the replicas and its autoscaler
sizes them by ongoing requests (docs/deployment.md).

``/ready`` gates traffic here as the gateway's health checks and Kubernetes' readiness
probe do elsewhere, in Serve's terms: a replica counts as started only once every required
backend works (a node without bubblewrap or namespaces fails the start, with the reason in
the replica's log), and a running replica whose required backend stops working fails
Serve's health check and is replaced.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import ray
from fastapi import FastAPI
from ray import serve

from services.api.readiness import readiness
from services.app import create_app
from services.settings import Settings

# The worker counts a replica sizes itself, unless the operator sets them.
MATH_WORKERS = "VERIFIER_MATH_WORKERS"
SANDBOX_WORKERS = "VERIFIER_SANDBOX_WORKERS"
# How long a starting replica waits for its backends (the sandbox's workers, the first
# exploit-canary run) before it gives up and Serve tries another start.
READY_TIMEOUT_S = 120.0


class ReplicaNotReady(RuntimeError):
    """A backend the settings require does not work in this replica (``/ready`` says 503)."""


def workers_for(num_cpus: float) -> int:
    """Math and sandbox workers for a replica holding ``num_cpus``: one per whole CPU, at
    least one (a fractional replica still needs a worker of each kind)."""
    return max(1, math.floor(num_cpus))


def replica_settings(num_cpus: float) -> Settings:
    """The service's settings, with the worker counts sized to the replica's CPUs where the
    environment leaves them unset (blank counts as unset, as everywhere in the settings)."""
    workers = workers_for(num_cpus)
    overrides: dict[str, Any] = {}
    if not os.environ.get(MATH_WORKERS):
        overrides["math_workers"] = workers
    if not os.environ.get(SANDBOX_WORKERS):
        overrides["sandbox"] = {"workers": workers}
    return Settings(**overrides)


async def require_ready(app: FastAPI) -> None:
    """Raise :class:`ReplicaNotReady` with ``/ready``'s details unless it would say 200."""
    report = await readiness(app.state.settings, app.state.backends)
    if not report.ready:
        broken = {
            name: report.backends[name].detail
            for name in report.required
            if not report.backends[name].ok
        }
        raise ReplicaNotReady(f"required backends do not work: {broken}")


async def wait_until_ready(app: FastAPI, timeout_s: float, poll_s: float = 0.5) -> None:
    """Return once ``/ready`` would say 200; after ``timeout_s``, raise why it does not."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            await require_ready(app)
            return
        except ReplicaNotReady:
            if time.monotonic() > deadline:
                raise
        await asyncio.sleep(poll_s)


def ready_gated(app: FastAPI, timeout_s: float) -> FastAPI:
    """``app`` with its start-up extended until it is ready: Serve starts routing to a
    replica when the app's lifespan has started, and fails the replica if it raises."""
    started = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with started(app) as state:
            await wait_until_ready(app, timeout_s)
            yield state

    app.router.lifespan_context = lifespan
    return app


class Verifier:
    """One verifier replica: the service's app with workers sized to the replica's CPUs."""

    def __init__(self) -> None:
        cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1.0)
        self._app = ready_gated(create_app(replica_settings(cpus)), READY_TIMEOUT_S)

    def __serve_build_asgi_app__(self) -> FastAPI:
        """Serve's ingress takes the app built in the replica, after ``__init__``."""
        return self._app

    async def check_health(self) -> None:
        """Serve's periodic health check: three failures in a row replace the replica."""
        await require_ready(self._app)


# The defaults of `serve run services.ray_deployment:app`; deploy/ray/serve.yaml repeats
# them where an operator tunes them.
VerifierDeployment = serve.deployment(
    ray_actor_options={"num_cpus": 2},
    autoscaling_config={"min_replicas": 1, "max_replicas": 8, "target_ongoing_requests": 2},
    # Batches are large and already spread over the replica's own workers: a few per
    # replica keep every worker busy without queueing a step's requests on one replica.
    max_ongoing_requests=8,
    health_check_period_s=10,
    graceful_shutdown_timeout_s=60,
)(serve.ingress()(Verifier))
app = VerifierDeployment.bind()
