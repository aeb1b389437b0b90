"""A circuit breaker per vLLM endpoint: stop hammering a dead server, probe it later."""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitBreaker:
    """Opens after ``failures`` consecutive failures; after ``reset_s`` lets ONE probe through.

    The probe's success closes it, its failure re-opens it for another ``reset_s``. Single
    event loop use only (no locks needed: no awaits inside the methods).
    """

    def __init__(
        self, failures: int, reset_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.threshold = max(1, failures)
        self.reset_s = reset_s
        self._clock = clock
        self._failures = 0
        self._opened_at = 0.0
        self._state = BreakerState.CLOSED
        self._probe_in_flight = False

    @property
    def state(self) -> BreakerState:
        return self._state

    def retry_in(self) -> float:
        """Seconds until an open breaker lets a probe through (0 when not open)."""
        if self._state is not BreakerState.OPEN:
            return 0.0
        return max(0.0, self._opened_at + self.reset_s - self._clock())

    def allow(self) -> bool:
        """May a request go out now? Claims the probe slot when half-opening."""
        if self._state is BreakerState.CLOSED:
            return True
        if self._state is BreakerState.OPEN and self.retry_in() <= 0.0:
            self._state = BreakerState.HALF_OPEN
        if self._state is BreakerState.HALF_OPEN and not self._probe_in_flight:
            self._probe_in_flight = True
            return True
        return False

    def record_success(self) -> None:
        self._failures = 0
        self._probe_in_flight = False
        self._state = BreakerState.CLOSED

    def record_failure(self) -> None:
        self._failures += 1
        self._probe_in_flight = False
        if self._state is BreakerState.HALF_OPEN or self._failures >= self.threshold:
            self._state = BreakerState.OPEN
            self._opened_at = self._clock()
