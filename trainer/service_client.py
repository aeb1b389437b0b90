"""The trainer's clients of the reward service: :mod:`services.contract.client`'s, with each
result as the wire's JSON object (the reward function, the evaluator and the preflight read
dicts).

Batching, failover, retries, 429 waits and the connection pool are the library's; see
:mod:`services.contract.client.http`. The names here stay importable for existing callers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.contract.client import AsyncClient, Client, ClientSettings, RewardServiceError
from services.contract.client.http import Item, Result, chunked

__all__ = [
    "AsyncServiceClient",
    "ClientSettings",
    "Item",
    "Result",
    "RewardServiceError",
    "ServiceClient",
    "chunked",
]


class AsyncServiceClient:
    """:class:`services.contract.client.AsyncClient`, scoring into JSON objects (TRL's reward
    function runs on TRL's event-loop thread)."""

    def __init__(self, settings: ClientSettings) -> None:
        self.client = AsyncClient(settings)
        self.settings = self.client.settings

    async def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[Result]:
        """One result per item, in order."""
        return await self.client.score_json(items, options)

    async def aclose(self) -> None:
        await self.client.aclose()


class ServiceClient:
    """:class:`services.contract.client.Client`, scoring into JSON objects (callers without an
    event loop: the evaluator, the preflight)."""

    def __init__(self, settings: ClientSettings) -> None:
        self.client = Client(settings)
        self.settings = self.client.settings

    def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[Result]:
        """One result per item, in order."""
        return self.client.score_json(items, options)

    def close(self) -> None:
        self.client.close()
