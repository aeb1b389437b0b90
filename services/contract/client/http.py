"""The service's clients, blocking and async: ``score``, ``grade``, ``get_reward``,
``health``, ``ready``.

One pooled connection per client. A batch is split above ``max_batch`` items; requests are
spread over the configured URLs round-robin and a retry moves to the next URL, so a dead
replica costs one attempt. The policy is
:class:`~services.contract.http_policy.HttpPolicy`'s: connection errors, timeouts and 5xx
are retried with exponential backoff and jitter; a 429 (a replica's queue is full) is
retried after its ``Retry-After`` without using up an attempt; any other 4xx is the
caller's mistake and fails at once. When the retries run out the call raises
:class:`RewardServiceError`: a reward is never made up.

Only httpx, tenacity and pydantic are imported here, never the service itself.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Self

import httpx
from pydantic import BaseModel

from services.contract.client.settings import ClientSettings, RewardServiceError
from services.contract.http_policy import (
    TRANSIENT_ERRORS,
    RetryableStatus,
    is_retryable_status,
)
from services.contract.protocol import (
    ExtractionPolicy,
    GradeRequest,
    GradeResponse,
    HealthResponse,
    Mode,
    ReadyResponse,
    RewardModelResponse,
    RewardOptions,
    ScoreResult,
    VerdictSource,
)

log = logging.getLogger(__name__)

# An item or a result as the wire carries it (JSON objects).
Item = dict[str, Any]
Result = dict[str, Any]
Options = RewardOptions | Mapping[str, Any] | None
Reference = str | int | float


def _log_retry(attempt: int, error: BaseException, delay: float) -> None:
    log.warning("reward service attempt %d failed (%s); retrying in %.1fs", attempt, error, delay)


def chunked(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def wire_item(item: BaseModel | Mapping[str, Any]) -> Item:
    """An item as JSON: a protocol model (``MathItem``, ``CodeItem``, ...) or a dict."""
    if isinstance(item, BaseModel):
        return item.model_dump(mode="json", exclude_none=True)
    return dict(item)


def wire_options(options: Options) -> dict[str, Any]:
    """Options as JSON: only what was set, so the server's defaults apply to the rest."""
    if options is None:
        return {}
    if isinstance(options, RewardOptions):
        return options.model_dump(mode="json", exclude_unset=True)
    return dict(options)


def grade_body(
    answer: str,
    reference: Reference,
    *,
    question: str = "",
    extraction: ExtractionPolicy | str | None = None,
    mode: Mode | str | None = None,
    verdict_source: VerdictSource | str | None = None,
    verifier_weight: float = 1.0,
) -> dict[str, Any]:
    """The body of ``POST /grade``, checked here as the service would check it."""
    request = GradeRequest.model_validate(
        {
            "question": question,
            "answer": answer,
            "reference": reference,
            "extraction": extraction,
            "mode": mode,
            "verdict_source": verdict_source,
            "verifier_weight": verifier_weight,
        }
    )
    return request.model_dump(mode="json", exclude_none=True)


def reward_model_body(
    query: Sequence[str],
    prompts: Sequence[str],
    labels: Sequence[Any] | None,
    options: Options,
) -> dict[str, Any]:
    """The body of OpenRLHF's ``POST /get_reward``."""
    body: dict[str, Any] = {"query": list(query), "prompts": list(prompts)}
    if labels is not None:
        body["labels"] = list(labels)
    if wire := wire_options(options):
        body["options"] = wire
    return body


def _check(response: httpx.Response) -> httpx.Response:
    """The answer, or the reason there is none: 5xx and 429 are retried, other 4xx fail."""
    if is_retryable_status(response.status_code):
        raise RetryableStatus(response)
    if response.status_code >= 400:
        raise RewardServiceError(
            f"{response.url} refused the request: HTTP {response.status_code}: "
            f"{response.text[:500]}"
        )
    return response


def _results(response: httpx.Response, expected: int) -> list[Result]:
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


def _settings(
    url: str | Sequence[str] | ClientSettings, api_key: str | None, policy: dict[str, Any]
) -> ClientSettings:
    if isinstance(url, ClientSettings):
        if api_key is not None or policy:
            raise TypeError("pass api_key and the policy in the ClientSettings")
        settings = url
    else:
        settings = ClientSettings.for_urls(url, api_key, **policy)
    if not settings.urls:
        raise ValueError("no reward service URL configured")
    return settings


class AsyncClient:
    """Async client of the service, e.g. ``AsyncClient("http://127.0.0.1:8000")``.

    ``url``: one URL, several (replicas, used round-robin with failover), or a
    :class:`ClientSettings`; ``policy``: :class:`ClientSettings` fields (``timeout_s``,
    ``retries``, ``backoff_s``, ``busy_wait_s``, ``max_batch``, ...). Use it as an
    ``async with`` block, or call :meth:`aclose`."""

    def __init__(
        self,
        url: str | Sequence[str] | ClientSettings,
        *,
        api_key: str | None = None,
        **policy: Any,
    ) -> None:
        self.settings = _settings(url, api_key, policy)
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

    async def _request(self, method: str, path: str, body: Any = None) -> httpx.Response:
        first = next(self._next_url)
        http = self._client()

        async def attempt(number: int) -> httpx.Response:
            url = f"{self.settings.url(first, number)}{path}"
            return _check(await http.request(method, url, json=body))

        try:
            return await self.settings.call(attempt, before_retry=_log_retry)
        except TRANSIENT_ERRORS as exc:
            raise _exhausted(self.settings, exc) from exc

    async def score_json(
        self, items: Sequence[BaseModel | Mapping[str, Any]], options: Options = None
    ) -> list[Result]:
        """``POST /score``: one result per item, in order, as the wire's JSON objects.
        Batches above ``max_batch`` items are sent as concurrent requests."""
        if not items:
            return []
        body_options = wire_options(options)

        async def post(chunk: Sequence[BaseModel | Mapping[str, Any]]) -> list[Result]:
            body = {"items": [wire_item(item) for item in chunk], "options": body_options}
            return _results(await self._request("POST", "/score", body), len(chunk))

        parts = await asyncio.gather(*map(post, chunked(items, self.settings.max_batch)))
        return [result for part in parts for result in part]

    async def score(
        self, items: Sequence[BaseModel | Mapping[str, Any]], options: Options = None
    ) -> list[ScoreResult]:
        """``POST /score``: one :class:`ScoreResult` per item, in order."""
        return [ScoreResult.model_validate(r) for r in await self.score_json(items, options)]

    async def grade(
        self,
        answer: str,
        reference: Reference,
        *,
        question: str = "",
        extraction: ExtractionPolicy | str | None = None,
        mode: Mode | str | None = None,
        verdict_source: VerdictSource | str | None = None,
        verifier_weight: float = 1.0,
    ) -> GradeResponse:
        """``POST /grade``: the verdict on one math answer (``extraction``: lenient when
        omitted; the other options: the service's defaults)."""
        body = grade_body(
            answer,
            reference,
            question=question,
            extraction=extraction,
            mode=mode,
            verdict_source=verdict_source,
            verifier_weight=verifier_weight,
        )
        return GradeResponse.model_validate((await self._request("POST", "/grade", body)).json())

    async def get_reward(
        self,
        query: Sequence[str],
        prompts: Sequence[str],
        labels: Sequence[Any] | None = None,
        options: Options = None,
    ) -> RewardModelResponse:
        """``POST /get_reward``, OpenRLHF's remote reward model: each query is a prompt
        followed by its response, scored against its label."""
        body = reward_model_body(query, prompts, labels, options)
        response = await self._request("POST", "/get_reward", body)
        return RewardModelResponse.model_validate(response.json())

    async def health(self) -> HealthResponse:
        """``GET /health``: the service is up, and its version."""
        return HealthResponse.model_validate((await self._request("GET", "/health")).json())

    async def ready(self) -> ReadyResponse:
        """``GET /ready``, once (no retries): which backends work. A replica that is not
        ready answers 503 with the same body, returned here too."""
        http = self._client()
        response = await http.get(f"{self.settings.urls[0]}/ready")
        return ReadyResponse.model_validate(response.json())

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()


class Client:
    """Blocking client of the service, with :class:`AsyncClient`'s arguments and policy.
    Use it as a ``with`` block, or call :meth:`close`."""

    def __init__(
        self,
        url: str | Sequence[str] | ClientSettings,
        *,
        api_key: str | None = None,
        **policy: Any,
    ) -> None:
        self.settings = _settings(url, api_key, policy)
        self._next_url = itertools.count()
        self._http = httpx.Client(timeout=self.settings.timeout(), headers=self.settings.headers())

    def _request(self, method: str, path: str, body: Any = None) -> httpx.Response:
        first = next(self._next_url)

        def attempt(number: int) -> httpx.Response:
            url = f"{self.settings.url(first, number)}{path}"
            return _check(self._http.request(method, url, json=body))

        try:
            return self.settings.call_sync(attempt, before_retry=_log_retry)
        except TRANSIENT_ERRORS as exc:
            raise _exhausted(self.settings, exc) from exc

    def score_json(
        self, items: Sequence[BaseModel | Mapping[str, Any]], options: Options = None
    ) -> list[Result]:
        """``POST /score``: one result per item, in order, as the wire's JSON objects."""
        body_options = wire_options(options)
        results: list[Result] = []
        for chunk in chunked(items, self.settings.max_batch):
            body = {"items": [wire_item(item) for item in chunk], "options": body_options}
            results.extend(_results(self._request("POST", "/score", body), len(chunk)))
        return results

    def score(
        self, items: Sequence[BaseModel | Mapping[str, Any]], options: Options = None
    ) -> list[ScoreResult]:
        """``POST /score``: one :class:`ScoreResult` per item, in order."""
        return [ScoreResult.model_validate(r) for r in self.score_json(items, options)]

    def grade(
        self,
        answer: str,
        reference: Reference,
        *,
        question: str = "",
        extraction: ExtractionPolicy | str | None = None,
        mode: Mode | str | None = None,
        verdict_source: VerdictSource | str | None = None,
        verifier_weight: float = 1.0,
    ) -> GradeResponse:
        """``POST /grade``: the verdict on one math answer (``extraction``: lenient when
        omitted; the other options: the service's defaults)."""
        body = grade_body(
            answer,
            reference,
            question=question,
            extraction=extraction,
            mode=mode,
            verdict_source=verdict_source,
            verifier_weight=verifier_weight,
        )
        return GradeResponse.model_validate(self._request("POST", "/grade", body).json())

    def get_reward(
        self,
        query: Sequence[str],
        prompts: Sequence[str],
        labels: Sequence[Any] | None = None,
        options: Options = None,
    ) -> RewardModelResponse:
        """``POST /get_reward``, OpenRLHF's remote reward model: each query is a prompt
        followed by its response, scored against its label."""
        body = reward_model_body(query, prompts, labels, options)
        response = self._request("POST", "/get_reward", body)
        return RewardModelResponse.model_validate(response.json())

    def health(self) -> HealthResponse:
        """``GET /health``: the service is up, and its version."""
        return HealthResponse.model_validate(self._request("GET", "/health").json())

    def ready(self) -> ReadyResponse:
        """``GET /ready``, once (no retries): which backends work (a replica that is not
        ready answers 503 with the same body, returned here too)."""
        response = self._http.get(f"{self.settings.urls[0]}/ready")
        return ReadyResponse.model_validate(response.json())

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
