"""The circuit breaker's state machine and the verdict cache, with a fake clock."""

from __future__ import annotations

import asyncio

from services.verifier.breaker import BreakerState, CircuitBreaker
from services.verifier.cache import VerdictCache
from services.verifier.types import ErrorKind, VerifierJudgement


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


def _ok(p: float) -> VerifierJudgement:
    return VerifierJudgement(p, label_mass=0.9, decided_by="logprob")


def test_cache_is_bounded_lru_and_marks_hits() -> None:
    cache: VerdictCache[VerifierJudgement] = VerdictCache(maxsize=2)
    cache.put(("q", "r", "a1"), _ok(0.1))
    cache.put(("q", "r", "a2"), _ok(0.2))
    assert cache.get(("q", "r", "a1")) == VerifierJudgement(
        0.1, label_mass=0.9, decided_by="logprob", cached=True
    )
    cache.put(("q", "r", "a3"), _ok(0.3))  # evicts a2, the least recently used
    assert cache.get(("q", "r", "a2")) is None
    assert cache.get(("q", "r", "a1")) is not None
    assert len(cache) == 2
    assert (cache.hits, cache.misses) == (2, 1)


def test_cache_never_stores_errors() -> None:
    cache: VerdictCache[VerifierJudgement] = VerdictCache(maxsize=8)
    failed = VerifierJudgement(None, error=f"{ErrorKind.TIMEOUT.value}: slow")
    cache.put(("q", "r", "a"), failed)
    assert cache.get(("q", "r", "a")) is None
    assert failed.error_kind is ErrorKind.TIMEOUT


def test_zero_size_cache_is_off() -> None:
    cache: VerdictCache[VerifierJudgement] = VerdictCache(maxsize=0)
    cache.put(("q",), _ok(0.5))
    assert cache.get(("q",)) is None


def test_through_asks_each_distinct_miss_once_and_keeps_order() -> None:
    cache: VerdictCache[VerifierJudgement] = VerdictCache(maxsize=8)
    cache.put(("q", "r", "hit"), _ok(0.9))
    asked: list[list[tuple[str, ...]]] = []

    async def compute(keys: list[tuple[str, ...]]) -> list[VerifierJudgement]:
        asked.append(keys)
        return [
            _ok(0.1) if key[2] == "a" else VerifierJudgement(None, error="timeout: slow")
            for key in keys
        ]

    keys = [("q", "r", "a"), ("q", "r", "hit"), ("q", "r", "b"), ("q", "r", "a")]
    missing = VerifierJudgement(None, error="internal")
    got = asyncio.run(cache.through(keys, compute, missing))
    assert asked == [[("q", "r", "a"), ("q", "r", "b")]]  # one call, duplicates once
    assert [j.probability for j in got] == [0.1, 0.9, None, 0.1]
    assert got[1].cached and not got[0].cached
    assert got[2].error == "timeout: slow"
    # The success is cached, the error is asked again next time.
    again = asyncio.run(cache.through(keys, compute, missing))
    assert asked[-1] == [("q", "r", "b")]
    assert again[0].cached and again[3].cached


def test_through_with_everything_cached_asks_nothing() -> None:
    cache: VerdictCache[VerifierJudgement] = VerdictCache(maxsize=8)
    cache.put(("q",), _ok(0.4))

    async def compute(keys: list[tuple[str, ...]]) -> list[VerifierJudgement]:
        raise AssertionError(f"asked about {keys}")

    got = asyncio.run(cache.through([("q",), ("q",)], compute, _ok(0.0)))
    assert [j.probability for j in got] == [0.4, 0.4]


def _state(breaker: CircuitBreaker) -> BreakerState:
    """Read through a call: mypy would otherwise narrow ``breaker.state`` across mutations."""
    return breaker.state
