"""``/ready``'s answer: which backends work, whether every required one does, and whether
the replica has room for more work."""

from __future__ import annotations

import asyncio

from services.composition import Backends
from services.contract.protocol import BackendStatus, ReadyResponse
from services.settings import Settings
from services.verifier import VerifierClient
from services.verifier.not_configured import NOT_CONFIGURED

NO_SANDBOX = "no sandbox in this process"
NO_CANARIES = "exploit canaries are off (VERIFIER_EXPLOIT_CANARY_INTERVAL_S=0)"


async def readiness(settings: Settings, backends: Backends, load: bool = False) -> ReadyResponse:
    """The state of each backend; ``ready`` when every required one works and, with
    ``load``, no queue is full (a saturated replica leaves the gateway's and Kubernetes'
    rotation until it drains; Ray Serve's health check leaves ``load`` off, since it
    replaces a replica that fails it)."""
    statuses = {
        "math": BackendStatus(ok=True, detail=f"{settings.math_workers} symbolic workers"),
        **await _sandbox_statuses(backends),
        "llm_verifier": await _verifier_status(backends.verifier),
        "canaries": _canary_status(backends),
    }
    room = True
    if backends.admission is not None:
        full = backends.admission.saturated()
        room = not full
        detail = backends.admission.describe()
        if full:
            detail = f"saturated ({', '.join(b.value for b in full)}): {detail}"
        statuses["queue"] = BackendStatus(ok=room, detail=detail)
    required = settings.required()
    return ReadyResponse(
        ready=all(statuses[name].ok for name in required) and (room or not load),
        required=list(required),
        backends=statuses,
    )


async def _sandbox_statuses(backends: Backends) -> dict[str, BackendStatus]:
    if backends.sandbox is None:
        missing = BackendStatus(ok=False, detail=NO_SANDBOX)
        return {"sandbox": missing, "q": missing}
    facts = await asyncio.to_thread(backends.sandbox.status)
    isolation, q = facts.isolation, facts.q
    return {
        "sandbox": BackendStatus(
            ok=isolation.ok, detail=f"isolation={isolation.level}: {isolation.reason}"
        ),
        "q": BackendStatus(
            ok=q.available, detail=f"q {q.version}" if q.available else str(q.reason)
        ),
    }


def _canary_status(backends: Backends) -> BackendStatus:
    if backends.canaries is None:
        return BackendStatus(ok=False, detail=NO_CANARIES)
    ok, detail = backends.canaries.status()
    return BackendStatus(ok=ok, detail=detail)


async def _verifier_status(client: VerifierClient | None) -> BackendStatus:
    if client is None:
        return BackendStatus(ok=False, detail=NOT_CONFIGURED)
    ok, detail = await client.health()
    return BackendStatus(ok=ok, detail=detail)
