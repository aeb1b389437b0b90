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

That bound acts only once a request has already waited. A metered backend (the sandbox:
:class:`Meter`) is also bounded on the *projected* time to finish: each admitted request's
units times the recent cost of a unit (worker-seconds its finished requests used per unit
they asked for: skipped tests, reused runs and spinners' timeouts included; or what the
unfinished ones have used per unit so far, where that is more), less the worker-seconds it
has used so far, summed over the unfinished requests with the new one's own, over the
workers. A request whose projection is past ``max_projected_s`` is refused at once, with a
``Retry-After`` of about when it would fit. Until one request has finished
there is no cost per unit to project from: each request is then taken to hold a worker for
the whole bound, so no more requests than workers are admitted at once.

A backend whose workers are shared round-robin between requests (math:
:class:`~services.tasks.math.workers.MathWorkers`) is bounded on its *fair-share*
projection instead: how long a new request would take while each open request is served
as many units as it is. A small request is then admitted beside a large one, which does not
delay it; it is refused (``max_fair_s``) only when that share would be too slow.

The counts live on the event loop's thread: admitting and releasing never race.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack, contextmanager
from enum import StrEnum
from functools import partial
from typing import Protocol

from services.metrics import Metrics

# Request times remembered per backend for Retry-After, and its range in seconds.
_RECENT = 32
# Finished requests whose cost per unit a projection averages.
_COSTS = 32
_MIN_RETRY_S = 1
_MAX_RETRY_S = 60


class Backend(StrEnum):
    SANDBOX = "sandbox"
    MATH = "math"


UNITS = {Backend.SANDBOX: "tests", Backend.MATH: "items"}


class Saturated(Exception):
    """A backend has no room for a request's work; retry after ``retry_after_s``."""

    def __init__(self, backend: Backend, reason: str, retry_after_s: int):
        super().__init__(f"{backend.value} queue full: {reason}; retry after {retry_after_s}s")
        self.backend = backend
        self.retry_after_s = retry_after_s


class Meter(Protocol):
    """A backend whose work is metered: how many jobs run at once, and a context in which a
    request's work is one metered flow (what it yields tells the worker-seconds used)."""

    @property
    def workers(self) -> int: ...

    def metered(self) -> AbstractContextManager[Callable[[], float]]: ...


class Projection:
    """How long a metered backend would take to finish the work admitted to it."""

    def __init__(self, meter: Meter, unmeasured_s: float) -> None:
        """``unmeasured_s``: the worker-seconds a request is taken to need while no
        request has finished yet."""
        self._meter = meter
        self._unmeasured_s = unmeasured_s
        # Each finished request's worker-seconds and units.
        self._costs: deque[tuple[float, int]] = deque(maxlen=_COSTS)
        # Each unfinished request's units and what tells its worker-seconds so far.
        self._open: dict[int, tuple[int, Callable[[], float]]] = {}

    def unit_s(self, used: Mapping[int, float] | None = None) -> float | None:
        """Worker-seconds per unit over the recent finished requests (None: none yet); or,
        where more, what the unfinished ones (``used``: by ticket) have already used per
        unit: work dearer than the recent (new programs after reused ones) counts at once."""
        units = sum(n for _seconds, n in self._costs)
        if not units:
            return None
        finished = sum(seconds for seconds, _n in self._costs) / units
        open_units = sum(n for n, _used in self._open.values())
        if not used or not open_units:
            return finished
        return max(finished, sum(used.values()) / open_units)

    def wait_s(self, units: int = 0) -> float:
        """Seconds until the admitted work and a request of ``units`` more (0: none) would
        be done, were they shared out over the workers."""
        used = {ticket: served() for ticket, (_n, served) in self._open.items()}
        unit_s = self.unit_s(used)
        if unit_s is None:
            work = (len(self._open) + (units > 0)) * self._unmeasured_s
        else:
            backlog = sum(max(0.0, n * unit_s - used[t]) for t, (n, _s) in self._open.items())
            work = backlog + units * unit_s
        return work / max(1, self._meter.workers)

    @contextmanager
    def track(self, ticket: int, units: int) -> Iterator[None]:
        """Meter one admitted request's work while the block runs."""
        with self._meter.metered() as used:
            self._open[ticket] = (units, used)
            try:
                yield
            finally:
                del self._open[ticket]
                self._costs.append((used(), units))


class Admission:
    """Work in flight per backend, against each backend's bound (0: no bound); for a
    backend in ``waits``, its longest wait for a worker against ``max_wait_s`` (0: none);
    and for a backend in ``meters``, its projected time to finish against
    ``max_projected_s`` (0: none)."""

    def __init__(
        self,
        bounds: Mapping[Backend, int],
        metrics: Metrics | None = None,
        *,
        waits: Mapping[Backend, Callable[[], float]] | None = None,
        max_wait_s: float = 0.0,
        meters: Mapping[Backend, Meter] | None = None,
        max_projected_s: float = 0.0,
        fair: Mapping[Backend, Callable[[int], float]] | None = None,
        max_fair_s: float = 0.0,
    ) -> None:
        """``fair``: per backend shared round-robin, the seconds a request of so many units
        would take beside the open ones, against ``max_fair_s`` (0: none)."""
        self._fair = dict(fair or {}) if max_fair_s > 0 else {}
        self._max_fair_s = max_fair_s
        self._bounds = {backend: bounds.get(backend, 0) for backend in Backend}
        self._waits = dict(waits or {}) if max_wait_s > 0 else {}
        self._max_wait_s = max_wait_s
        self._projections = (
            {b: Projection(meter, max_projected_s) for b, meter in (meters or {}).items()}
            if max_projected_s > 0
            else {}
        )
        self._max_projected_s = max_projected_s
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
                metrics.queue_projected.labels(backend=backend.value).set_function(
                    partial(self.projected_s, backend)
                )

    def bound(self, backend: Backend) -> int:
        return self._bounds[backend]

    def in_flight(self, backend: Backend) -> int:
        return self._in_flight[backend]

    def oldest_age_s(self, backend: Backend) -> float:
        """How long the oldest request still in ``backend`` has been there (0: none)."""
        started = self._admitted[backend]
        return time.monotonic() - min(started.values()) if started else 0.0

    def projected_s(self, backend: Backend, units: int = 0) -> float:
        """How long ``backend`` would take to finish what it was given and a request of
        ``units`` more (0: not metered)."""
        projection = self._projections.get(backend)
        return projection.wait_s(units) if projection is not None else 0.0

    def saturated(self) -> list[Backend]:
        """The backends at or past their bound: a new request for them would be refused."""
        return [
            b
            for b, bound in self._bounds.items()
            if (bound > 0 and self._in_flight[b] >= bound)
            or self._waited_too_long(b)
            or self._projected_too_long(b, 0)
            or self._fair_too_long(b, 1)
        ]

    def _fair_too_long(self, backend: Backend, units: int) -> bool:
        fair = self._fair.get(backend)
        return fair is not None and self._in_flight[backend] > 0 and fair(units) > self._max_fair_s

    def _wait_s(self, backend: Backend) -> float:
        wait = self._waits.get(backend)
        return wait() if wait is not None else 0.0

    def _waited_too_long(self, backend: Backend) -> bool:
        return backend in self._waits and self._wait_s(backend) > self._max_wait_s

    def _projected_too_long(self, backend: Backend, units: int) -> bool:
        return self._in_flight[backend] > 0 and (
            self.projected_s(backend, units) > self._max_projected_s > 0
        )

    def describe(self) -> str:
        return ", ".join(
            f"{b.value} {self._in_flight[b]}/{self._bounds[b] or 'unbounded'} {UNITS[b]}"
            + (
                f", longest wait {self._wait_s(b):.1f}/{self._max_wait_s:g} s"
                if b in self._waits
                else ""
            )
            + (
                f", projected {self.projected_s(b):.1f}/{self._max_projected_s:g} s"
                if b in self._projections
                else ""
            )
            + (
                f", a new item would be done in {self._fair[b](1):.2f}/{self._max_fair_s:g} s"
                if b in self._fair
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
            refusal = self._refusal(backend, units)
            if refusal is not None:
                reason, retry_after_s = refusal
                if self._metrics is not None:
                    self._metrics.queue_refused.labels(backend=backend.value).inc()
                raise Saturated(backend, reason, retry_after_s)
        ticket = next(self._tickets)
        started = time.monotonic()
        for backend, units in wanted.items():
            self._in_flight[backend] += units
            self._admitted[backend][ticket] = started
            self._publish(backend)
        try:
            with ExitStack() as metering:
                for backend, units in wanted.items():
                    if backend in self._projections:
                        metering.enter_context(self._projections[backend].track(ticket, units))
                yield
        finally:
            for backend, units in wanted.items():
                self._in_flight[backend] -= units
                del self._admitted[backend][ticket]
                self._publish(backend)

    def _refusal(self, backend: Backend, units: int) -> tuple[str, int] | None:
        """Why ``units`` more of ``backend``'s work cannot be admitted now, and the seconds
        to retry after (None: they can)."""
        bound, busy = self._bounds[backend], self._in_flight[backend]
        if bound > 0 and busy > 0 and busy + units > bound:
            return (
                f"{busy} {UNITS[backend]} in flight, this request adds {units}, the bound is "
                f"{bound}"
            ), self.retry_after_s(backend)
        if busy > 0 and self._waited_too_long(backend):
            return (
                f"a request has waited {self._wait_s(backend):.1f} s for a worker, the bound "
                f"is {self._max_wait_s:g} s"
            ), self.retry_after_s(backend)
        if self._projected_too_long(backend, units):
            projected = self.projected_s(backend, units)
            # About when the work ahead of it has shrunk enough for it to fit.
            excess = projected - self._max_projected_s
            retry = min(_MAX_RETRY_S, max(_MIN_RETRY_S, math.ceil(excess)))
            return (
                f"with its {units} {UNITS[backend]} it would be done in about "
                f"{projected:.1f} s, the bound is {self._max_projected_s:g} s"
            ), retry
        if self._fair_too_long(backend, units):
            projected = self._fair[backend](units)
            excess = projected - self._max_fair_s
            retry = min(_MAX_RETRY_S, max(_MIN_RETRY_S, math.ceil(excess)))
            return (
                f"sharing the workers with the requests being scored, its {units} "
                f"{UNITS[backend]} would take about {projected:.1f} s, the bound is "
                f"{self._max_fair_s:g} s"
            ), retry
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
