"""The math checker: guards, a verdict cache, the typed comparison, then the symbolic pool.

Each answer is read once into a typed value (``reading.py``) and the pair is compared by
the tables of ``comparison.py``. What they leave undecided is a formula over leaves, pairs
of expressions or numbers (or a pair of types without a rule, each side as written), and
only those leaves go to the symbolic pool, each distinct one once and all at once: a set
of three roots against another sends the roots the probe could not tell apart, not the
two texts. A pair that would need more than ``comparison.MAX_LEAVES`` of them goes whole.
A leaf that times out or fails makes the pair's outcome a timeout or an error, unless the
other parts decide it without that leaf.

GRPO scores 8–16 completions per prompt and many share a final answer, so verdicts are
memoised on the canonical forms of the two typed answers, as the conversion table leaves
them (``(C) 12`` against ``12`` is ``12`` against ``12``), in a bounded LRU; the verdict of
each leaf is memoised there too, under its own canonical pair, and identical comparisons
already running (pairs, and leaves) are awaited rather than started twice.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

from cachetools import LRUCache

from services.mathcheck.alignment import latex_tokens
from services.mathcheck.answer_types import Answer, Quantity
from services.mathcheck.comparison import (
    AnyOf,
    Decision,
    Leaf,
    Method,
    Verdict,
    convert,
    decide,
    leaves,
)
from services.mathcheck.guards import hostile_reason
from services.mathcheck.latex_tokens import join
from services.mathcheck.pool import SymbolicFailure, SymbolicPool, SymbolicTimeout
from services.mathcheck.reading import read_tokens


class Outcome(StrEnum):
    EQUAL = "equal"
    DIFFERENT = "different"
    TIMEOUT = "timeout"
    ERROR = "error"


_FAILURES = (Outcome.TIMEOUT, Outcome.ERROR)


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


class Checker(Protocol):
    """What the math judge, /grade and the canaries need of a checker: a verdict on a pair
    (:class:`MathChecker`, or the service's worker processes,
    :class:`~services.tasks.math.workers.MathWorkers`)."""

    @property
    def workers(self) -> int: ...

    async def check(
        self, reference: str, answer: str, gate: asyncio.Semaphore | None = None
    ) -> MathVerdict: ...

    def close(self) -> None: ...


class MathChecker:
    def __init__(
        self,
        pool: SymbolicPool,
        cache_size: int,
        on_cache: CacheListener | None = None,
        on_method: MethodListener | None = None,
    ) -> None:
        self._pool = pool
        # Pairs under their two canonical forms; leaves under ("leaf", reference, answer).
        self._cache: LRUCache[tuple[str, ...], MathVerdict] = LRUCache(maxsize=cache_size)
        self._inflight: dict[tuple[str, ...], asyncio.Future[MathVerdict]] = {}
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
        reference, reference_value = read_answer(reference)
        answer, answer_value = read_answer(answer)
        read_values = reference_value, answer_value
        values = convert(*read_values)
        # What the conversions turned into another answer goes on as that answer's text;
        # alone, a unit is decoration: the symbolic engine gets the values.
        texts = (
            _text(reference, read_values[0], values[0]),
            _text(answer, read_values[1], values[1]),
        )
        key = (values[0].canonical, values[1].canonical)
        cached = self._cache.get(key)
        if cached is not None:
            self._note_cache(hit=True)
            return replace(cached, cached=True)
        self._note_cache(hit=False)

        decision = decide(*values)
        if isinstance(decision, Verdict):
            detail = "equal" if decision.equal else "not equal"
            verdict = MathVerdict(
                Outcome.EQUAL if decision.equal else Outcome.DIFFERENT,
                decision.method.value,
                f"{decision.method.value}: {detail}",
            )
            self._cache[key] = verdict
            return self._record(verdict)
        verdict = await self._once(key, self._settle(decision, values, texts, gate))
        return self._record(verdict)

    async def _once(
        self, key: tuple[str, ...], comparison: Coroutine[Any, Any, MathVerdict]
    ) -> MathVerdict:
        """The verdict of ``comparison``, cached under ``key``; one that is already running
        under that key is awaited instead (its verdict marked cached)."""
        running = self._inflight.get(key)
        if running is not None:
            comparison.close()
            return replace(await asyncio.shield(running), cached=True)
        future: asyncio.Future[MathVerdict] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            verdict = await comparison
        except BaseException:
            future.cancel()
            raise
        finally:
            self._inflight.pop(key, None)
        future.set_result(verdict)
        self._cache[key] = verdict
        return verdict

    async def _settle(
        self,
        decision: Decision,
        values: tuple[Answer, Answer],
        texts: tuple[str, str],
        gate: asyncio.Semaphore | None,
    ) -> MathVerdict:
        """The verdict of a decision left to the symbolic engine: each distinct leaf in the
        pool at once (a side that is the whole answer as written, else as read), then the
        formula over their outcomes."""
        if isinstance(decision, Leaf) and (decision.reference, decision.answer) == values:
            # The pair whole, cached as the pair.
            return await self._symbolic(*texts, gate)
        pending = leaves(decision)
        compared = await asyncio.gather(
            *(self._leaf(leaf, _leaf_texts(leaf, values, texts), gate) for leaf in pending)
        )
        if isinstance(decision, Leaf):
            return compared[0]
        results = dict(zip(pending, compared, strict=True))
        outcome = _outcome(decision, results)
        if outcome in _FAILURES:
            return next(verdict for verdict in compared if verdict.outcome is outcome)
        detail = "equal" if outcome is Outcome.EQUAL else "not equal"
        return MathVerdict(
            outcome,
            Method.SYMBOLIC.value,
            f"symbolic: {detail}, part by part ({len(pending)} comparisons)",
        )

    async def _leaf(
        self, leaf: Leaf, texts: tuple[str, str], gate: asyncio.Semaphore | None
    ) -> MathVerdict:
        """One leaf in the pool, its verdict cached under its own canonical pair."""
        key = ("leaf", *leaf.key)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        verdict = await self._once(key, self._symbolic(*texts, gate))
        return replace(verdict, cached=False)

    async def _symbolic(
        self, reference: str, answer: str, gate: asyncio.Semaphore | None
    ) -> MathVerdict:
        try:
            if gate is None:
                result = await self._pool.compare(reference, answer)
            else:
                async with gate:
                    result = await self._pool.compare(reference, answer)
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


# A group's completions share answers, and a reference is read for each of them.
@functools.lru_cache(maxsize=4096)
def read_answer(text: str) -> tuple[str, Answer]:
    """One answer as LaTeX and its typed value: the text is scanned once by the front end
    (``alignment.latex_tokens``), and the reader reads the tokens it leaves."""
    tokens = latex_tokens(text)
    return join(tokens), read_tokens(tokens)


def _text(written: str, read_value: Answer, converted: Answer) -> str:
    """The text of an answer for the checks after the types: as written, unless a
    conversion turned it into another answer (``(C) 12`` into ``12``), then that one's."""
    if converted is read_value or converted is getattr(read_value, "written", None):
        return written
    return converted.number.canonical if isinstance(converted, Quantity) else converted.canonical


def _leaf_texts(
    leaf: Leaf, values: tuple[Answer, Answer], texts: tuple[str, str]
) -> tuple[str, str]:
    """The texts of a leaf for the symbolic engine: a side that stands for the whole answer
    as written, else the text of the part it is (``_text``)."""
    return _text(texts[0], values[0], leaf.reference), _text(texts[1], values[1], leaf.answer)


def _outcome(decision: Decision, results: dict[Leaf, MathVerdict]) -> Outcome:
    """The outcome of a formula: all of its parts or any of them; a part that timed out or
    failed decides it only when the other parts leave it open."""
    if isinstance(decision, Verdict):
        return Outcome.EQUAL if decision.equal else Outcome.DIFFERENT
    if isinstance(decision, Leaf):
        return results[decision].outcome
    outcomes = [_outcome(part, results) for part in decision.parts]
    deciding, otherwise = (
        (Outcome.EQUAL, Outcome.DIFFERENT)
        if isinstance(decision, AnyOf)
        else (Outcome.DIFFERENT, Outcome.EQUAL)
    )
    if deciding in outcomes:
        return deciding
    return next((outcome for outcome in outcomes if outcome in _FAILURES), otherwise)
