"""The math checker: guards, a verdict cache, fast exact checks, then the symbolic pool.

GRPO scores 8–16 completions per prompt and many share a final answer, so verdicts are
memoised on the canonical forms of the two typed answers (``reading.py``), as the
conversion table of ``comparison.py`` leaves them (``(C) 12`` against ``12`` is ``12``
against ``12``), in a bounded LRU, and identical comparisons already running are awaited
rather than started twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from cachetools import LRUCache

from services.mathcheck.alignment import align
from services.mathcheck.answer_types import Answer, Quantity
from services.mathcheck.comparison import Method, convert, equal
from services.mathcheck.equivalence import quick_verdict
from services.mathcheck.guards import hostile_reason
from services.mathcheck.normalization import normalize_answer, without_unit
from services.mathcheck.pool import SymbolicFailure, SymbolicPool, SymbolicTimeout
from services.mathcheck.reading import read


class Outcome(StrEnum):
    EQUAL = "equal"
    DIFFERENT = "different"
    TIMEOUT = "timeout"
    ERROR = "error"


@dataclass(frozen=True)
class MathVerdict:
    outcome: Outcome
    method: str
    detail: str
    cached: bool = False

    @property
    def equal(self) -> bool:
        return self.outcome is Outcome.EQUAL


CacheListener = Callable[[bool], None]
MethodListener = Callable[[str], None]


class MathChecker:
    def __init__(
        self,
        pool: SymbolicPool,
        cache_size: int,
        on_cache: CacheListener | None = None,
        on_method: MethodListener | None = None,
    ) -> None:
        self._pool = pool
        self._cache: LRUCache[tuple[str, str], MathVerdict] = LRUCache(maxsize=cache_size)
        self._inflight: dict[tuple[str, str], asyncio.Future[MathVerdict]] = {}
        self._on_cache = on_cache
        self._on_method = on_method

    @property
    def workers(self) -> int:
        return self._pool.workers

    async def check(
        self, reference: str, answer: str, gate: asyncio.Semaphore | None = None
    ) -> MathVerdict:
        """Compare ``answer`` with ``reference`` (the gold answer).

        ``gate`` bounds how many symbolic comparisons one caller runs at once, so that a
        batch full of slow answers cannot monopolise the pool while other requests wait.
        """
        for role, text in (("reference", reference), ("answer", answer)):
            reason = hostile_reason(text)
            if reason is not None:
                return self._record(
                    MathVerdict(Outcome.ERROR, "guard", f"{role} refused: {reason}")
                )
        reference, answer = align(reference, answer)
        read_values = read(reference), read(answer)
        values = convert(*read_values)
        # What the conversions turned into another answer goes on as that answer's text.
        reference = _text(reference, read_values[0], values[0])
        answer = _text(answer, read_values[1], values[1])
        key = (values[0].canonical, values[1].canonical)
        cached = self._cache.get(key)
        if cached is not None:
            self._note_cache(hit=True)
            return replace(cached, cached=True)
        self._note_cache(hit=False)

        # Typed values first; what they leave undecided is compared as strings without
        # units (alone, a unit is decoration: the symbolic engine gets the values).
        quick = equal(*values)
        reference, answer = without_unit(reference), without_unit(answer)
        normalized = (normalize_answer(reference), normalize_answer(answer))
        if quick is None:
            quick = quick_verdict(*normalized)
        if quick is not None:
            outcome = Outcome.EQUAL if quick.equal else Outcome.DIFFERENT
            detail = "equal" if quick.equal else "not equal"
            verdict = MathVerdict(outcome, quick.method.value, f"{quick.method.value}: {detail}")
            self._cache[key] = verdict
            return self._record(verdict)

        running = self._inflight.get(key)
        if running is not None:
            return replace(await asyncio.shield(running), cached=True)

        future: asyncio.Future[MathVerdict] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            verdict = await self._symbolic(reference, answer, normalized, gate)
        except BaseException:
            future.cancel()
            raise
        finally:
            self._inflight.pop(key, None)
        future.set_result(verdict)
        self._cache[key] = verdict
        return self._record(verdict)

    async def _symbolic(
        self,
        reference: str,
        answer: str,
        normalized: tuple[str, str],
        gate: asyncio.Semaphore | None,
    ) -> MathVerdict:
        retry = normalized if normalized != (reference, answer) else None
        try:
            if gate is None:
                result = await self._pool.compare(reference, answer, retry)
            else:
                async with gate:
                    result = await self._pool.compare(reference, answer, retry)
        except SymbolicTimeout as exc:
            return MathVerdict(Outcome.TIMEOUT, Method.SYMBOLIC.value, str(exc))
        except SymbolicFailure as exc:
            return MathVerdict(Outcome.ERROR, Method.SYMBOLIC.value, str(exc))
        outcome = Outcome.EQUAL if result.equal else Outcome.DIFFERENT
        return MathVerdict(outcome, Method.SYMBOLIC.value, f"symbolic: {result.detail}")

    def _note_cache(self, hit: bool) -> None:
        if self._on_cache is not None:
            self._on_cache(hit)

    def _record(self, verdict: MathVerdict) -> MathVerdict:
        if self._on_method is not None:
            self._on_method(verdict.method)
        return verdict

    def close(self) -> None:
        self._pool.close()


def _text(written: str, read_value: Answer, converted: Answer) -> str:
    """The text of an answer for the checks after the types: as written, unless a
    conversion turned it into another answer (``(C) 12`` into ``12``), then that one's."""
    if converted is read_value or converted is getattr(read_value, "written", None):
        return written
    return converted.number.canonical if isinstance(converted, Quantity) else converted.canonical
