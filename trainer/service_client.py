"""The trainer's clients of the reward service: :mod:`services.contract.client`'s, each
result a typed :class:`~services.contract.protocol.ScoreResult` (the reward function, the
evaluator and the preflight read its fields); items go as the wire's JSON objects.

Batching, failover, retries, 429 waits and the connection pool are the library's; see
:mod:`services.contract.client.http`. The names here stay importable for existing callers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.contract.client import AsyncClient, Client, ClientSettings, RewardServiceError
from services.contract.client.http import Item, chunked
from services.contract.protocol import ScoreResult

__all__ = [
    "AsyncServiceClient",
    "ClientSettings",
    "Item",
    "RewardServiceError",
    "ServiceClient",
    "chunked",
]


class AsyncServiceClient:
    """:class:`services.contract.client.AsyncClient` (TRL's reward function runs on TRL's
    event-loop thread)."""

    def __init__(self, settings: ClientSettings) -> None:
        self.client = AsyncClient(settings)
        self.settings = self.client.settings

    async def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[ScoreResult]:
        """One result per item, in order."""
        return await self.client.score(items, options)

    async def aclose(self) -> None:
        await self.client.aclose()


class ServiceClient:
    """:class:`services.contract.client.Client` (callers without an event loop: the
    evaluator, the preflight)."""

    def __init__(self, settings: ClientSettings) -> None:
        self.client = Client(settings)
        self.settings = self.client.settings

    def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[ScoreResult]:
        """One result per item, in order."""
        return self.client.score(items, options)

    def close(self) -> None:
        self.client.close()
