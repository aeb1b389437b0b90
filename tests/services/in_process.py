"""The scorer in-process, as the composition root wires it, with the real math checker and
no sandbox or LLM verifier: for tests that need no server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from services.llm_stage import LLMStage
from services.metrics import Metrics
from services.scoring import Scorer
from services.settings import Settings
from services.tasks.math.workers import MathWorkers


@asynccontextmanager
async def rule_scorer() -> AsyncIterator[Scorer]:
    settings = Settings()
    checker = MathWorkers(1, settings.math_timeout_s, settings.math_memory_mb, 64)
    await checker.warm()
    stage = LLMStage(None, Metrics())
    try:
        yield Scorer(settings, checker, Metrics(), None, stage)
    finally:
        checker.close()
