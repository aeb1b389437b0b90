"""The verdict cache: bounded LRU, errors never stored, each distinct miss asked once."""

from __future__ import annotations

import asyncio

from services.verifier.cache import VerdictCache
from services.verifier.types import ErrorKind, VerifierJudgement


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
