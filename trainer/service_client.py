"""HTTP clients for the reward service's ``POST /score``: batching, failover, retries.

One request carries a whole batch (split above ``max_batch``). Chunks are spread over
the configured URLs round-robin, and a retry moves to the next URL, so a dead replica
costs one attempt. Connection errors, timeouts and 5xx are retried with exponential
backoff and jitter; a 429 (a replica's queue is full) is retried after its
``Retry-After``, on the next URL, without using up an attempt; any other 4xx is the
caller's mistake and fails at once. When the retries
run out the call raises :class:`RewardServiceError`: a reward is never made up.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from services.http_policy import (
    TRANSIENT_ERRORS,
    HttpPolicy,
    RetryableStatus,
    is_retryable_status,
)
from trainer.config import ServiceSection

log = logging.getLogger(__name__)

Item = dict[str, Any]
Result = dict[str, Any]


class RewardServiceError(RuntimeError):
    """The service could not score a batch: unreachable after retries, or it refused it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientSettings(HttpPolicy):
    """Where to send batches, and the HTTP policy: the config's ``service`` section's
    :class:`HttpPolicy`, taken whole."""

    urls: tuple[str, ...]
    api_key: str | None = None
    max_batch: int = 512

    @classmethod
    def from_section(cls, section: ServiceSection, api_key: str | None = None) -> ClientSettings:
        return cls(
            urls=tuple(section.url),
            api_key=section.api_key or api_key,
            max_batch=section.max_batch,
            **dataclasses.asdict(section.http),
        )

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def url(self, first: int, attempt: int) -> str:
        """Attempt n of a chunk goes to the URL after the one attempt n - 1 used."""
        return self.urls[(first + attempt - 1) % len(self.urls)]


def _log_retry(attempt: int, error: BaseException, delay: float) -> None:
    log.warning("reward service attempt %d failed (%s); retrying in %.1fs", attempt, error, delay)


def chunked(items: Sequence[Item], size: int) -> list[Sequence[Item]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def _parse(response: httpx.Response, expected: int) -> list[Result]:
    """The results of one chunk, or the reason there are none."""
    if is_retryable_status(response.status_code):
        raise RetryableStatus(response)
    if response.status_code >= 400:
        raise RewardServiceError(
            f"{response.url} refused the batch: HTTP {response.status_code}: {response.text[:500]}"
        )
    results: list[Result] = response.json()["results"]
    if len(results) != expected:
        raise RewardServiceError(
            f"{response.url} returned {len(results)} results for {expected} items"
        )
    return results


def _exhausted(settings: ClientSettings, error: BaseException) -> RewardServiceError:
    return RewardServiceError(
        f"reward service unreachable after {settings.attempts} attempts over "
        f"{list(settings.urls)}: {error}"
    )


class AsyncServiceClient:
    """Async client, for the TRL reward function (which runs on TRL's event-loop thread)."""

    def __init__(self, settings: ClientSettings) -> None:
        if not settings.urls:
            raise ValueError("no reward service URL configured")
        self.settings = settings
        self._next_url = itertools.count()
        self._http: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _client(self) -> httpx.AsyncClient:
        # A connection pool belongs to the loop that opened it: make one per loop.
        loop = asyncio.get_running_loop()
        if self._http is None or self._loop is not loop:
            self._http = httpx.AsyncClient(
                timeout=self.settings.timeout(),
                headers=self.settings.headers(),
                limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
            )
            self._loop = loop
        return self._http

    async def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[Result]:
        """One result per item, in order."""
        if not items:
            return []
        chunks = chunked(items, self.settings.max_batch)
        parts = await asyncio.gather(*(self._post(chunk, options) for chunk in chunks))
        return [result for part in parts for result in part]

    async def _post(self, chunk: Sequence[Item], options: dict[str, Any]) -> list[Result]:
        first = next(self._next_url)
        body = {"items": list(chunk), "options": options}
        http = self._client()

        async def attempt(number: int) -> list[Result]:
            response = await http.post(f"{self.settings.url(first, number)}/score", json=body)
            return _parse(response, len(chunk))

        try:
            return await self.settings.call(attempt, before_retry=_log_retry)
        except TRANSIENT_ERRORS as exc:
            raise _exhausted(self.settings, exc) from exc

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None


class ServiceClient:
    """Blocking client with the same policy, for callers without an event loop (verl)."""

    def __init__(self, settings: ClientSettings) -> None:
        if not settings.urls:
            raise ValueError("no reward service URL configured")
        self.settings = settings
        self._next_url = itertools.count()
        self._http = httpx.Client(timeout=settings.timeout(), headers=settings.headers())

    def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[Result]:
        results: list[Result] = []
        for chunk in chunked(items, self.settings.max_batch):
            results.extend(self._post(chunk, options))
        return results

    def _post(self, chunk: Sequence[Item], options: dict[str, Any]) -> list[Result]:
        first = next(self._next_url)
        body = {"items": list(chunk), "options": options}

        def attempt(number: int) -> list[Result]:
            response = self._http.post(f"{self.settings.url(first, number)}/score", json=body)
            return _parse(response, len(chunk))

        try:
            return self.settings.call_sync(attempt, before_retry=_log_retry)
        except TRANSIENT_ERRORS as exc:
            raise _exhausted(self.settings, exc) from exc

    def close(self) -> None:
        self._http.close()
