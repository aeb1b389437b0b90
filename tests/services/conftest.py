"""Fixtures the service tests share: the anyio backend, and an in-process rule scorer."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from services.scoring import Scorer
from tests.services.in_process import rule_scorer


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def scorer() -> AsyncIterator[Scorer]:
    """The scoring pipeline with the real math checker and no LLM verifier or sandbox."""
    async with rule_scorer() as scorer:
        yield scorer
