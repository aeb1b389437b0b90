"""HTTP to one or more vLLM servers: round-robin, retries with backoff, a breaker each."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx

from services.contract.http_policy import is_retryable_status
from services.verifier.breaker import CircuitBreaker
from services.verifier.config import VerifierConfig
from services.verifier.types import ErrorKind, error_reason


class CallError(Exception):
    """A request that produced no usable response; ``kind`` says why."""

    def __init__(self, kind: ErrorKind, detail: str) -> None:
        super().__init__(error_reason(kind, detail))
        self.kind = kind
        self.detail = detail

    @property
    def reason(self) -> str:
        return error_reason(self.kind, self.detail)

    @property
    def retryable(self) -> bool:
        # 4xx and bad bodies will not improve by asking again; an open breaker is a decision.
        return self.kind in (ErrorKind.UNAVAILABLE, ErrorKind.TIMEOUT)


def _retryable(error: BaseException) -> bool:
    return isinstance(error, CallError) and error.retryable


@dataclass
class Endpoint:
    url: str
    breaker: CircuitBreaker


def _error_message(response: httpx.Response) -> str:
    try:
        error = response.json().get("error", response.text)
    except ValueError:
        return response.text[:200]
    if isinstance(error, dict):
        return str(error.get("message", error))[:200]
    return str(error)[:200]


class Transport:
    """Owns the single ``httpx.AsyncClient``; every call returns JSON or raises CallError."""

    def __init__(self, config: VerifierConfig) -> None:
        if not config.base_urls:
            raise ValueError("the LLM verifier needs at least one URL (VERIFIER_LLM_URL)")
        self.config = config
        self.policy = config.http
        self.endpoints = [
            Endpoint(url, CircuitBreaker(config.breaker_failures, config.breaker_reset_s))
            for url in config.base_urls
        ]
        self._next = 0
        self._semaphore = asyncio.Semaphore(config.max_concurrency)
        self.requests_sent: Counter[str] = Counter()  # by path: lets tests count HTTP calls
        headers = dict(config.extra_headers)
        if config.api_key:
            headers["Authorization"] = f"Bearer {config.api_key.get_secret_value()}"
        self._http = httpx.AsyncClient(
            headers=headers,
            timeout=self.policy.timeout(),
            limits=httpx.Limits(
                max_connections=config.max_concurrency * len(self.endpoints) + 2,
                max_keepalive_connections=config.max_concurrency * len(self.endpoints),
            ),
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    def _pick(self) -> Endpoint:
        """The next endpoint (round-robin) whose breaker lets a request through."""
        for _ in range(len(self.endpoints)):
            endpoint = self.endpoints[self._next % len(self.endpoints)]
            self._next += 1
            if endpoint.breaker.allow():
                return endpoint
        wait = min(e.breaker.retry_in() for e in self.endpoints)
        urls = ", ".join(e.url for e in self.endpoints)
        raise CallError(
            ErrorKind.CIRCUIT_OPEN,
            f"verifier circuit open after repeated failures of {urls}; next probe in {wait:.1f}s",
        )

    async def request(self, method: str, path: str, body: Any = None) -> Any:
        """One logical call, retried on connect errors/5xx/timeouts on the next endpoint."""

        async def attempt(_: int) -> Any:
            return await self._attempt(self._pick(), method, path, body)

        async with self._semaphore:
            return await self.policy.call(attempt, retry_if=_retryable)

    async def _attempt(self, endpoint: Endpoint, method: str, path: str, body: Any) -> Any:
        url = endpoint.url + path
        self.requests_sent[path] += 1
        try:
            # httpx's read timeout is per chunk; this bounds the whole request.
            async with asyncio.timeout(self.policy.timeout_s):
                response = await self._http.request(method, url, json=body)
        except (TimeoutError, httpx.TimeoutException) as exc:
            endpoint.breaker.record_failure()
            limit = self.policy.timeout_s
            raise CallError(ErrorKind.TIMEOUT, f"{url} took over {limit:g}s") from exc
        except httpx.TransportError as exc:
            endpoint.breaker.record_failure()
            name = type(exc).__name__
            raise CallError(ErrorKind.UNAVAILABLE, f"{url}: {name}: {exc}") from exc
        if is_retryable_status(response.status_code):
            endpoint.breaker.record_failure()
            detail = f"HTTP {response.status_code} from {url}: {_error_message(response)}"
            raise CallError(ErrorKind.UNAVAILABLE, detail)
        endpoint.breaker.record_success()  # the server answered: it is alive
        if response.status_code >= 400:
            hint = " (check the verifier API key)" if response.status_code in (401, 403) else ""
            detail = f"HTTP {response.status_code} from {url}: {_error_message(response)}{hint}"
            raise CallError(ErrorKind.REJECTED, detail)
        try:
            return response.json()
        except ValueError as exc:
            raise CallError(ErrorKind.BAD_RESPONSE, f"{url} returned non-JSON") from exc

    async def probe(self, endpoint: Endpoint, path: str) -> httpx.Response:
        """A plain GET for health checks: no retries, no breaker accounting."""
        self.requests_sent[path] += 1
        return await self._http.get(endpoint.url + path, timeout=self.policy.connect_timeout_s)
