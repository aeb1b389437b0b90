"""The composition root: the scoring backends built from the settings, started and closed.

The service's lifespan and the CLI's in-process grading both build their backends here, so
the wiring (math pool and checker, sandbox, LLM verifier client and stage, scorer) exists
once.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from sandbox import Sandbox, SandboxUnavailable
from services.admission import Admission, Backend
from services.codecheck.outcome_cache import OutcomeCache
from services.exploits.canaries import CanaryMonitor
from services.llm_stage import LLMStage
from services.mathcheck import parser_snapshot
from services.mathcheck.checker import Checker
from services.mathcheck.symbolic import LogConvention
from services.metrics import Metrics
from services.scoring import Scorer
from services.settings import Settings
from services.tasks.code.judge import CodeJudge
from services.tasks.code.selection import TestLimits
from services.tasks.math.workers import MathWorkers
from services.verifier import VerifierClient

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Backends:
    """What scores items, and the parts /ready reports on."""

    scorer: Scorer
    checker: Checker
    # None where code is not scored (the CLI grades math only).
    sandbox: Sandbox | None
    # None when no LLM verifier URL is set.
    verifier: VerifierClient | None
    # None where the exploit canaries do not run (the CLI; VERIFIER_EXPLOIT_CANARY_INTERVAL_S=0).
    canaries: CanaryMonitor | None = None
    # The queues' bounds and what is in them; None where nothing is refused (the CLI).
    admission: Admission | None = None


@asynccontextmanager
async def build_backends(
    settings: Settings,
    metrics: Metrics,
    *,
    code: bool = True,
    canaries: bool = False,
    admission: bool = False,
) -> AsyncIterator[Backends]:
    """Start every backend the settings describe; close them all on exit.

    ``code=False`` leaves the sandbox out (code items then say it is unavailable);
    ``canaries=True`` (the service) starts the exploit canaries on their timer;
    ``admission=True`` (the service) bounds the work admitted per backend.
    """
    async with AsyncExitStack() as stack:
        parser_snapshot.hand_to_fork_server(settings.math_parser_snapshot_dir)
        checker = MathWorkers(
            settings.math_workers,
            settings.math_timeout_s,
            settings.math_memory_mb,
            settings.cache_size,
            chunk_items=settings.math_chunk_items,
            log_convention=LogConvention(settings.math_log_convention),
            on_cache=metrics.cache_lookup,
            on_method=metrics.math_decided,
        )
        stack.callback(checker.close)
        await checker.warm()
        sandbox = (
            await stack.enter_async_context(_started_sandbox(settings, metrics)) if code else None
        )
        verifier = None
        if settings.llm.base_urls:
            verifier = await stack.enter_async_context(VerifierClient(settings.llm))
        stage = LLMStage(verifier, metrics)
        code_judge = _code_judge(settings, sandbox, metrics) if sandbox is not None else None
        gate = _admission(settings, metrics, sandbox, checker) if admission else None
        scorer = Scorer(settings, checker, metrics, code_judge, stage, gate)
        monitor = None
        if canaries and settings.exploit_canary_interval_s > 0:
            monitor = _canary_monitor(settings, checker, code_judge, verifier, metrics)
            monitor.start()
            stack.push_async_callback(monitor.stop)
        _freeze_start_up()
        stack.callback(_unfreeze_start_up)
        yield Backends(
            scorer=scorer,
            checker=checker,
            sandbox=sandbox,
            verifier=verifier,
            canaries=monitor,
            admission=gate,
        )


# Backends alive in this process (tests build several, nested or one after another).
_alive = 0


def _freeze_start_up() -> None:
    """What start-up built lives as long as the backends: kept out of the collector's sight,
    a full collection during a large batch walks that batch's objects only (about half the
    longest pause of a 1,024-item code batch, measured)."""
    global _alive
    _alive += 1
    gc.collect()
    gc.freeze()


def _unfreeze_start_up() -> None:
    """When the last backends close, the collector sees everything again."""
    global _alive
    _alive -= 1
    if _alive == 0:
        gc.unfreeze()


def _code_judge(settings: Settings, sandbox: Sandbox, metrics: Metrics) -> CodeJudge:
    outcomes = OutcomeCache(
        settings.code_cache_size, settings.code_cache_ttl_s, on_lookup=metrics.code_cache_lookup
    )
    return CodeJudge(
        sandbox,
        wall_backstop=settings.code_wall_backstop,
        outcomes=outcomes,
        tests=TestLimits(settings.code_max_tests, settings.code_max_tests_ceiling),
    )


def _admission(
    settings: Settings, metrics: Metrics, sandbox: Sandbox | None, math: MathWorkers
) -> Admission:
    """Bounds per worker, so a replica with more workers admits more; the sandbox's
    longest wait for a worker against its bound; its projected time to finish (the
    sandbox meters each request's worker-seconds) against its own; and math's fair-share
    projection (its workers are shared round-robin) against its own."""
    bounds = {
        Backend.SANDBOX: settings.queued_tests_per_worker * settings.sandbox.workers,
        Backend.MATH: settings.queued_math_per_worker * settings.math_workers,
    }
    waits = {Backend.SANDBOX: sandbox.queue_wait_s} if sandbox is not None else {}
    meters = {Backend.SANDBOX: sandbox} if sandbox is not None else {}
    return Admission(
        bounds,
        metrics,
        waits=waits,
        max_wait_s=settings.max_queue_wait_s,
        meters=meters,
        max_projected_s=settings.max_projected_wait_s,
        fair={Backend.MATH: math.fair_wait_s},
        max_fair_s=settings.max_math_projected_s,
    )


def _canary_monitor(
    settings: Settings,
    checker: Checker,
    code_judge: CodeJudge | None,
    verifier: VerifierClient | None,
    metrics: Metrics,
) -> CanaryMonitor:
    """The canaries score through the same checker, sandbox and verifier as /score, with
    metric sinks of their own: the request counters on /metrics stay the requests'."""
    own = Metrics()
    stage = LLMStage(verifier, own)
    scorer = Scorer(settings, checker, own, code_judge, stage)
    return CanaryMonitor(
        scorer,
        metrics,
        settings.exploit_canary_interval_s,
        verifier=verifier is not None,
        defaults=settings.defaults,
    )


@asynccontextmanager
async def _started_sandbox(settings: Settings, metrics: Metrics) -> AsyncIterator[Sandbox]:
    backend = Backend.SANDBOX.value
    sandbox = Sandbox(
        settings.sandbox,
        on_queue_wait=metrics.queue_wait.labels(backend=backend).observe,
        on_request_queue_wait=metrics.request_queue_wait.labels(backend=backend).observe,
    )
    try:
        try:
            await sandbox.warmup()
        except SandboxUnavailable as exc:
            # Math keeps working; code items will say why they cannot run.
            log.warning("code sandbox unavailable: %s", exc)
        yield sandbox
    finally:
        await sandbox.aclose()
