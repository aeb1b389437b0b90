"""A bounded LRU of verdicts: GRPO groups repeat the same (question, reference, answer)."""

from __future__ import annotations

from dataclasses import replace
from typing import Generic, Protocol, TypeVar

from cachetools import LRUCache


class _Cacheable(Protocol):
    @property
    def ok(self) -> bool: ...

    @property
    def cached(self) -> bool: ...


J = TypeVar("J", bound=_Cacheable)


class VerdictCache(Generic[J]):
    """Keeps successful judgements only: an error must be retried, never replayed."""

    def __init__(self, maxsize: int) -> None:
        self._lru: LRUCache[tuple[str, ...], J] | None = (
            LRUCache(maxsize=maxsize) if maxsize > 0 else None
        )
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return 0 if self._lru is None else len(self._lru)

    def get(self, key: tuple[str, ...]) -> J | None:
        found = None if self._lru is None else self._lru.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return replace(found, cached=True)  # type: ignore[type-var]

    def put(self, key: tuple[str, ...], judgement: J) -> None:
        if self._lru is not None and judgement.ok:
            self._lru[key] = judgement
