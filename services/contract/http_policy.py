"""One HTTP policy for every client of the project: timeouts, retries, backoff.

The LLM verifier's transport (to vLLM), the trainer's client of the service and
``verifier grade --url`` all state their policy as an :class:`HttpPolicy` and retry through
:meth:`HttpPolicy.call`. Only httpx and tenacity are imported, which the service and the
trainer extras both install, so the trainer uses it without the server's dependencies.

What is retried: connection errors, timeouts and 5xx answers (the server is down,
restarting or overloaded, so another try may succeed), and 429 (the server's queue is
full). Any other 4xx is the caller's mistake and fails at once. Waits double from
``backoff_s`` up to ``backoff_max_s``, plus a random jitter of up to ``backoff_s`` so
clients that failed together do not retry in step. An answer carrying ``Retry-After``
(seconds) is retried after that long instead, plus the jitter. A 429 uses up no attempt:
the server is well and said when to come back; waiting on 429s stops after ``busy_wait_s``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    Retrying,
    retry_if_exception,
    wait_exponential,
    wait_random,
)
from tenacity.stop import stop_base
from tenacity.wait import wait_base

T = TypeVar("T")

# Called before each wait: (number of the attempt that failed, its error, seconds to wait).
RetryHook = Callable[[int, BaseException, float], None]


BUSY = 429


class RetryableStatus(Exception):
    """A 5xx or 429 answer, raised by a client so that :meth:`HttpPolicy.call` tries again."""

    def __init__(self, response: httpx.Response) -> None:
        super().__init__(f"HTTP {response.status_code} from {response.url}: {response.text[:300]}")
        self.status_code = response.status_code
        self.retry_after_s = retry_after_s(response.headers.get("Retry-After"))


def retry_after_s(value: str | None) -> float | None:
    """A ``Retry-After`` header's wait: seconds, or an HTTP date; None when absent or bad."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def is_retryable_status(status_code: int) -> bool:
    """5xx: the server failed, not the request; 429: its queue is full for now. Any other
    4xx will not improve by asking again."""
    return status_code >= 500 or status_code == BUSY


def is_busy(error: BaseException | None) -> bool:
    return isinstance(error, RetryableStatus) and error.status_code == BUSY


# A connection error, a timeout (httpx's or ``asyncio.timeout``'s) or a 5xx.
TRANSIENT_ERRORS = (httpx.TransportError, TimeoutError, RetryableStatus)


def is_transient(error: BaseException) -> bool:
    return isinstance(error, TRANSIENT_ERRORS)


def _described(default: float, description: str) -> Any:
    """A field's default and the sentence the settings reference shows for it."""
    return field(default=default, metadata={"description": description})


@dataclass(frozen=True, slots=True)
class HttpPolicy:
    """Timeouts and retry schedule of one HTTP client (the defaults: a client of the service).

    A settings section that holds one (the LLM verifier's) reads its fields as its own
    variables: ``VERIFIER_LLM_TIMEOUT_S`` is ``llm.http.timeout_s``."""

    connect_timeout_s: float = _described(5.0, "Timeout of connecting to a server.")
    timeout_s: float = _described(120.0, "Timeout of one request: read, write, pool wait.")
    retries: int = _described(
        5, "Extra attempts after the first, on connect errors, 5xx and timeouts."
    )
    backoff_s: float = _described(
        0.5, "First wait before a retry; it doubles each retry, plus a jitter up to this."
    )
    backoff_max_s: float = _described(10.0, "Longest wait between retries, before the jitter.")
    busy_wait_s: float = _described(
        600.0, "Longest time spent retrying 429 answers (a full queue), which use no attempt."
    )

    def __post_init__(self) -> None:
        if self.connect_timeout_s <= 0 or self.timeout_s <= 0:
            raise ValueError("HTTP timeouts must be > 0")
        if min(self.retries, self.backoff_s, self.backoff_max_s, self.busy_wait_s) < 0:
            raise ValueError("retries, backoff_s, backoff_max_s and busy_wait_s must be >= 0")

    @property
    def attempts(self) -> int:
        return self.retries + 1

    def timeout(self) -> httpx.Timeout:
        return httpx.Timeout(self.timeout_s, connect=self.connect_timeout_s)

    def backoff_bounds(self, failed_attempt: int) -> tuple[float, float]:
        """The least and most seconds waited after attempt ``failed_attempt`` (1-based) fails."""
        base = min(self.backoff_s * 2 ** (failed_attempt - 1), self.backoff_max_s)
        return base, base + self.backoff_s

    def wait(self) -> wait_base:
        """The schedule of :meth:`backoff_bounds`, as a tenacity wait strategy; an answer's
        ``Retry-After`` replaces the exponential part."""
        backoff = wait_exponential(multiplier=self.backoff_s, max=self.backoff_max_s)
        return _RetryAfterOr(backoff, self.backoff_s)

    def stop(self) -> stop_base:
        """Stop after ``attempts`` failures other than 429, or ``busy_wait_s`` of 429s."""
        return _StopAfter(self.attempts, self.busy_wait_s)

    async def call(
        self,
        attempt: Callable[[int], Awaitable[T]],
        retry_if: Callable[[BaseException], bool] = is_transient,
        before_retry: RetryHook | None = None,
    ) -> T:
        """``await attempt(n)`` for n = 1, 2, ... until it returns, raises an error that is
        not ``retry_if``, or the attempts run out; the last error is raised as it is."""
        retrying = AsyncRetrying(
            stop=self.stop(),
            wait=self.wait(),
            retry=retry_if_exception(retry_if),
            before_sleep=_before_sleep(before_retry),
            reraise=True,
        )
        async for tried in retrying:
            with tried:
                return await attempt(tried.retry_state.attempt_number)
        raise AssertionError("unreachable: tenacity returns or re-raises")

    def call_sync(
        self,
        attempt: Callable[[int], T],
        retry_if: Callable[[BaseException], bool] = is_transient,
        before_retry: RetryHook | None = None,
    ) -> T:
        """:meth:`call` for blocking callers."""
        retrying = Retrying(
            stop=self.stop(),
            wait=self.wait(),
            retry=retry_if_exception(retry_if),
            before_sleep=_before_sleep(before_retry),
            reraise=True,
        )
        for tried in retrying:
            with tried:
                return attempt(tried.retry_state.attempt_number)
        raise AssertionError("unreachable: tenacity returns or re-raises")


def nest_policy_fields(
    data: Any, names: Collection[str], default: HttpPolicy, key: str = "http"
) -> Any:
    """A section's raw values with the policy fields ``names`` given at the section's level
    (``timeout_s``, ``retries``, ...) moved into its policy field ``key``, over the policy
    given there or else ``default``. For a settings section's before-validator: the
    section's keys stay flat while the section carries the policy whole."""
    if not isinstance(data, dict) or not any(name in data for name in names):
        return data
    given = data.get(key, default)
    policy = dataclasses.asdict(given) if isinstance(given, HttpPolicy) else dict(given)
    policy.update({name: data[name] for name in names if name in data})
    rest = {name: value for name, value in data.items() if name not in names}
    return {**rest, key: policy}


class _RetryAfterOr(wait_base):
    """The server's ``Retry-After`` when the failed answer has one, else ``backoff``; plus a
    jitter of up to ``jitter_s`` either way."""

    def __init__(self, backoff: wait_base, jitter_s: float) -> None:
        self._backoff = backoff
        self._jitter = wait_random(0, jitter_s)

    def __call__(self, retry_state: RetryCallState) -> float:
        outcome = retry_state.outcome
        error = outcome.exception() if outcome is not None else None
        told = error.retry_after_s if isinstance(error, RetryableStatus) else None
        base = told if told is not None else self._backoff(retry_state)
        return base + self._jitter(retry_state)


class _StopAfter(stop_base):
    """Counts failures per call (one instance per call): 429s apart from the others."""

    def __init__(self, attempts: int, busy_wait_s: float) -> None:
        self._attempts = attempts
        self._busy_wait_s = busy_wait_s
        self._failures = 0

    def __call__(self, retry_state: RetryCallState) -> bool:
        outcome = retry_state.outcome
        if is_busy(outcome.exception() if outcome is not None else None):
            return (retry_state.seconds_since_start or 0.0) >= self._busy_wait_s
        self._failures += 1
        return self._failures >= self._attempts


def _before_sleep(hook: RetryHook | None) -> Callable[[RetryCallState], None]:
    def before_sleep(state: RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome is not None else None
        if hook is not None and error is not None:
            delay = state.next_action.sleep if state.next_action is not None else 0.0
            hook(state.attempt_number, error, delay)

    return before_sleep
