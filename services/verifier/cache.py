"""A bounded LRU of verdicts: GRPO groups repeat the same (question, reference, answer)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Generic, Protocol, TypeVar

from cachetools import LRUCache


class _Cacheable(Protocol):
    @property
    def ok(self) -> bool: ...

    @property
    def cached(self) -> bool: ...


J = TypeVar("J", bound=_Cacheable)
Key = tuple[str, ...]


class VerdictCache(Generic[J]):
    """Keeps successful judgements only: an error must be retried, never replayed."""

    def __init__(self, maxsize: int) -> None:
        self._lru: LRUCache[Key, J] | None = LRUCache(maxsize=maxsize) if maxsize > 0 else None
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return 0 if self._lru is None else len(self._lru)

    def get(self, key: Key) -> J | None:
        found = None if self._lru is None else self._lru.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return replace(found, cached=True)  # type: ignore[type-var]

    def put(self, key: Key, judgement: J) -> None:
        if self._lru is not None and judgement.ok:
            self._lru[key] = judgement

    async def through(
        self,
        keys: Sequence[Key],
        compute: Callable[[list[Key]], Awaitable[list[J]]],
        missing: J,
    ) -> list[J]:
        """A judgement per key, in order: hits replayed, each distinct miss computed once.

        ``compute`` gets the distinct uncached keys and returns one judgement each;
        ``missing`` stands in should a key somehow get none.
        """
        results: list[J | None] = []
        pending: dict[Key, list[int]] = {}
        for index, key in enumerate(keys):
            hit = self.get(key)
            results.append(hit)
            if hit is None:
                pending.setdefault(key, []).append(index)  # duplicates asked once
        if pending:
            fresh = await compute(list(pending))
            for key, judgement in zip(pending, fresh, strict=True):
                self.put(key, judgement)
                for index in pending[key]:
                    results[index] = judgement
        return [result if result is not None else missing for result in results]
