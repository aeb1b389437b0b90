"""Admission control: a request's work is admitted as a whole, or refused at once.

Each backend (the sandbox's tests, the math checker's comparisons) has a bound on the work
admitted and not yet finished. A request that would take a backend past its bound is
refused with :class:`Saturated` (the HTTP layer answers 429 with ``Retry-After``) instead
of queueing behind the work already there, so a trainer or a load balancer learns at once
that this replica is full. Nothing of a refused request has started: it is never a
partially scored batch. A request larger than the bound on its own is admitted when that
backend is idle, or it could never be scored.

Work is counted in units (tests, comparisons), but units differ in cost: one test of a
program that spins holds a worker for its whole timeout. So a backend may also report how
long the request waiting longest for one of its workers has waited; past ``max_wait_s`` the
backend is full whatever its count, and new requests are refused until it catches up.

The counts live on the event loop's thread: admitting and releasing never race.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from enum import StrEnum
from functools import partial

from services.metrics import Metrics

# Request times remembered per backend for Retry-After, and its range in seconds.
_RECENT = 32
_MIN_RETRY_S = 1
_MAX_RETRY_S = 60


class Backend(StrEnum):
    SANDBOX = "sandbox"
    MATH = "math"


UNITS = {Backend.SANDBOX: "tests", Backend.MATH: "comparisons"}


class Saturated(Exception):
    """A backend has no room for a request's work; retry after ``retry_after_s``."""

    def __init__(self, backend: Backend, reason: str, retry_after_s: int):
        super().__init__(f"{backend.value} queue full: {reason}; retry after {retry_after_s}s")
        self.backend = backend
        self.retry_after_s = retry_after_s


class Admission:
    """Work in flight per backend, against each backend's bound (0: no bound); and, for a
    backend in ``waits``, its longest wait for a worker against ``max_wait_s`` (0: none)."""

    def __init__(
        self,
        bounds: Mapping[Backend, int],
        metrics: Metrics | None = None,
        *,
        waits: Mapping[Backend, Callable[[], float]] | None = None,
        max_wait_s: float = 0.0,
    ) -> None:
        self._bounds = {backend: bounds.get(backend, 0) for backend in Backend}
        self._waits = dict(waits or {}) if max_wait_s > 0 else {}
        self._max_wait_s = max_wait_s
        self._in_flight = dict.fromkeys(Backend, 0)
        # When each admitted request's work entered its backend, oldest first.
        self._admitted: dict[Backend, dict[int, float]] = {backend: {} for backend in Backend}
        self._recent: dict[Backend, deque[float]] = {b: deque(maxlen=_RECENT) for b in Backend}
        self._tickets = iter(range(1, 2**62))
        self._metrics = metrics
        if metrics is not None:
            for backend, bound in self._bounds.items():
                metrics.queue_bound.labels(backend=backend.value).set(bound)
                metrics.queue_depth.labels(backend=backend.value).set(0)
                metrics.queue_fill.labels(backend=backend.value).set(0)
                metrics.queue_refused.labels(backend=backend.value)  # a series from the start
                metrics.queue_oldest.labels(backend=backend.value).set_function(
                    partial(self.oldest_age_s, backend)
                )

    def bound(self, backend: Backend) -> int:
        return self._bounds[backend]

    def in_flight(self, backend: Backend) -> int:
        return self._in_flight[backend]

    def oldest_age_s(self, backend: Backend) -> float:
        """How long the oldest request still in ``backend`` has been there (0: none)."""
        started = self._admitted[backend]
        return time.monotonic() - min(started.values()) if started else 0.0

    def saturated(self) -> list[Backend]:
        """The backends at or past their bound: a new request for them would be refused."""
        return [
            b
            for b, bound in self._bounds.items()
            if (bound > 0 and self._in_flight[b] >= bound) or self._waited_too_long(b)
        ]

    def _wait_s(self, backend: Backend) -> float:
        wait = self._waits.get(backend)
        return wait() if wait is not None else 0.0

    def _waited_too_long(self, backend: Backend) -> bool:
        return backend in self._waits and self._wait_s(backend) > self._max_wait_s

    def describe(self) -> str:
        return ", ".join(
            f"{b.value} {self._in_flight[b]}/{self._bounds[b] or 'unbounded'} {UNITS[b]}"
            + (
                f", longest wait {self._wait_s(b):.1f}/{self._max_wait_s:g} s"
                if b in self._waits
                else ""
            )
            for b in Backend
        )

    def retry_after_s(self, backend: Backend) -> int:
        """The median time recent requests spent in ``backend``: about when room frees."""
        recent = self._recent[backend]
        seconds = statistics.median(recent) if recent else _MIN_RETRY_S
        return min(_MAX_RETRY_S, max(_MIN_RETRY_S, math.ceil(seconds)))

    @contextmanager
    def admit(self, demand: Mapping[Backend, int]) -> Iterator[None]:
        """Hold ``demand`` (units per backend) while the block runs, or raise Saturated."""
        wanted = {backend: units for backend, units in demand.items() if units > 0}
        for backend, units in wanted.items():
            reason = self._refusal(backend, units)
            if reason is not None:
                if self._metrics is not None:
                    self._metrics.queue_refused.labels(backend=backend.value).inc()
                raise Saturated(backend, reason, self.retry_after_s(backend))
        ticket = next(self._tickets)
        started = time.monotonic()
        for backend, units in wanted.items():
            self._in_flight[backend] += units
            self._admitted[backend][ticket] = started
            self._publish(backend)
        try:
            yield
        finally:
            for backend, units in wanted.items():
                self._in_flight[backend] -= units
                del self._admitted[backend][ticket]
                self._publish(backend)

    def _refusal(self, backend: Backend, units: int) -> str | None:
        """Why ``units`` more of ``backend``'s work cannot be admitted now (None: they can)."""
        bound, busy = self._bounds[backend], self._in_flight[backend]
        if bound > 0 and busy > 0 and busy + units > bound:
            return (
                f"{busy} {UNITS[backend]} in flight, this request adds {units}, the bound is "
                f"{bound}"
            )
        if busy > 0 and self._waited_too_long(backend):
            return (
                f"a request has waited {self._wait_s(backend):.1f} s for a worker, the bound "
                f"is {self._max_wait_s:g} s"
            )
        return None

    def observe(self, backend: Backend, seconds: float) -> None:
        """One request's time with ``backend``, queued and running."""
        self._recent[backend].append(seconds)
        if self._metrics is not None:
            self._metrics.backend_seconds.labels(backend=backend.value).observe(seconds)

    def _publish(self, backend: Backend) -> None:
        if self._metrics is None:
            return
        depth, bound = self._in_flight[backend], self._bounds[backend]
        self._metrics.queue_depth.labels(backend=backend.value).set(depth)
        self._metrics.queue_fill.labels(backend=backend.value).set(depth / bound if bound else 0)
