"""The circuit breaker's state machine, with a fake clock."""

from __future__ import annotations

from services.verifier.breaker import BreakerState, CircuitBreaker


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_opens_after_n_consecutive_failures_only() -> None:
    breaker = CircuitBreaker(failures=3, reset_s=10, clock=Clock())
    breaker.record_failure()
    breaker.record_failure()
    breaker.record_success()  # resets the streak
    breaker.record_failure()
    breaker.record_failure()
    assert _state(breaker) is BreakerState.CLOSED and breaker.allow()
    breaker.record_failure()
    assert _state(breaker) is BreakerState.OPEN
    assert not breaker.allow()


def test_half_open_lets_one_probe_through_and_closes_on_success() -> None:
    clock = Clock()
    breaker = CircuitBreaker(failures=1, reset_s=10, clock=clock)
    breaker.record_failure()
    clock.now += 9.9
    assert not breaker.allow() and breaker.retry_in() > 0
    clock.now += 0.2
    assert breaker.allow()  # the probe
    assert _state(breaker) is BreakerState.HALF_OPEN
    assert not breaker.allow()  # only one probe at a time
    breaker.record_success()
    assert _state(breaker) is BreakerState.CLOSED
    assert breaker.allow() and breaker.allow()


def test_failed_probe_reopens_for_a_full_period() -> None:
    clock = Clock()
    breaker = CircuitBreaker(failures=5, reset_s=10, clock=clock)
    for _ in range(5):
        breaker.record_failure()
    clock.now += 10
    assert breaker.allow()
    breaker.record_failure()  # one failure in half-open is enough
    assert _state(breaker) is BreakerState.OPEN
    assert breaker.retry_in() == 10
    clock.now += 10
    assert breaker.allow()


def _state(breaker: CircuitBreaker) -> BreakerState:
    """Read through a call: mypy would otherwise narrow ``breaker.state`` across mutations."""
    return breaker.state
