"""Math judged in worker processes, shared fairly between requests.

The event loop only parses requests, dispatches and answers: every CPU-bound part of
judging a math item (the reference's reading, the commitment scope, extraction, the format
score, the checker's guards, alignment, reading, conversion and decision, and its symbolic
leaves) runs in a worker process, one per core by default.

* **Chunks.** A request's items are deduplicated (a GRPO group repeats completions) and
  sent in chunks of up to ``chunk_items`` (measured: ``benchmarks/math_replica_bench.py``),
  fewer where that would leave a worker idle, so dispatch costs little.
* **Fair share.** Each request is a flow of chunks; a free slot takes the next chunk of
  the flow with the fewest chunks dispatched, round-robin among equals. Two chunks a worker
  are dispatched at most (one running, one waiting in the pool's queue, so a worker never
  idles through a round trip to the event loop), so a small request's first chunk starts
  as soon as a worker is through the chunks already handed to it.
* **Deadlines of compute, not of waiting.** Inside a worker a symbolic leaf runs under its
  own deadline, ``timeout_s`` of the worker's CPU time (``signal.setitimer(ITIMER_PROF)``,
  raising in Python code), as the symbolic pool's wall-clock kill did before. A chunk
  that overruns its backstop (a hang the timer cannot interrupt, in C code) has its
  worker killed by pebble, whose timeout starts only when a worker takes the chunk; its
  items are then retried one by one, each under its own backstop, so only the hanging
  item gets ``timeout``. A worker that dies (out of memory, a crash) is replaced the same
  way; the item that killed it gets ``error``.
* **Caches.** Each worker keeps the checker's verdict cache (on the two canonical forms,
  leaves too) and math-verify's parse cache; the metrics of cache hits and decision
  methods come back with the chunk's results.

The checker's API (``check``) runs through the same workers, as a one-item flow.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import multiprocessing
import resource
import signal
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pebble import ProcessExpired, ProcessPool

from services.domain import ExtractionPolicy, Status, Task
from services.judgement import Judgement, unjudged
from services.mathcheck.checker import (
    CacheListener,
    MathChecker,
    MathVerdict,
    MethodListener,
    Outcome,
)
from services.mathcheck.pool import SymbolicFailure, SymbolicTimeout, _compare
from services.mathcheck.symbolic import LogConvention, SymbolicVerdict

# Items a chunk carries at most (see benchmarks/math_replica_bench.py for the sweep).
CHUNK_ITEMS = 16
# The backstops are wall-clock, for a hang the CPU timer cannot interrupt (C code): loose,
# since a loaded machine stretches a CPU second into several. A chunk's: this many leaf
# deadlines, plus this much per item (a long completion's extraction and reading take
# milliseconds).
_CHUNK_BACKSTOP_LEAVES = 10
_BACKSTOP_PER_ITEM_S = 0.5
# A single item's: this many leaf deadlines, plus a second.
_ITEM_BACKSTOP_LEAVES = 20
# Chunks dispatched per worker: one running and one waiting in its pipe, so a worker never
# idles through the round trip of a result to the event loop and the next chunk back.
_CHUNKS_PER_WORKER = 2
# Worker seconds per item assumed until a chunk has been measured.
_UNMEASURED_ITEM_S = 0.005
# Weight of the newest chunk in the running mean of the seconds per item.
_EWMA = 0.2


@dataclass(frozen=True, slots=True)
class MathJob:
    """What judging one math item depends on (its key for deduplication)."""

    reference: str
    completion: str
    extraction: ExtractionPolicy
    after_reasoning: bool
    min_thinking_words: int


@dataclass(slots=True)
class _Chunk:
    function: Callable[..., Any]
    payload: list[Any]
    timeout_s: float
    future: asyncio.Future[Any]
    flow: _Flow | None = None  # set when it starts


@dataclass(eq=False, slots=True)
class _Flow:
    """One request's chunks not yet started, and its items not yet judged."""

    pending: deque[_Chunk] = field(default_factory=deque)
    remaining: int = 0
    running: int = 0  # its chunks on a worker now


class _LeafTimeout(BaseException):
    """The leaf's CPU deadline passed (a BaseException: library code that catches
    Exception does not swallow it)."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _LeafTimeout


class InlineSymbolic:
    """The symbolic engine inside a worker: a leaf runs here, under its own CPU deadline.

    It stands where the checker takes a :class:`~services.mathcheck.pool.SymbolicPool`."""

    def __init__(
        self, timeout_s: float, log_convention: LogConvention = LogConvention.REFERENCE
    ) -> None:
        self.workers = 1
        self.timeout_s = timeout_s
        self.log_convention = log_convention

    async def compare(self, reference: str, answer: str) -> SymbolicVerdict:
        previous = signal.signal(signal.SIGPROF, _on_alarm)
        signal.setitimer(signal.ITIMER_PROF, self.timeout_s)
        try:
            return _compare(reference, answer, self.log_convention)
        except _LeafTimeout as exc:
            raise SymbolicTimeout(
                f"symbolic comparison exceeded {self.timeout_s:g}s of CPU time"
            ) from exc
        except MemoryError as exc:
            raise SymbolicFailure("symbolic comparison ran out of memory") from exc
        except RecursionError as exc:
            raise SymbolicFailure("symbolic comparison failed: RecursionError") from exc
        except Exception as exc:  # a sympy bug must fail one item only
            raise SymbolicFailure(f"symbolic comparison failed: {type(exc).__name__}") from exc
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)

    def close(self) -> None:
        pass


class _Worker:
    """What one worker process keeps between chunks."""

    def __init__(self, timeout_s: float, cache_size: int, log_convention: LogConvention) -> None:
        from services.tasks.math.judge import MathJudge

        self.hits: list[bool] = []
        self.methods: list[str] = []
        self.loop = asyncio.new_event_loop()
        self.checker = MathChecker(
            InlineSymbolic(timeout_s, log_convention),  # type: ignore[arg-type]
            cache_size,
            on_cache=self.hits.append,
            on_method=self.methods.append,
        )
        self.judge = MathJudge(self.checker)


_WORKER: _Worker | None = None


def _init_worker(
    memory_mb: int, timeout_s: float, cache_size: int, log_convention: LogConvention
) -> None:
    global _WORKER
    from services.mathcheck.symbolic import warm_up

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    warm_up()
    _WORKER = _Worker(timeout_s, cache_size, log_convention)


def _worker() -> _Worker:
    if _WORKER is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("math worker not initialised")
    _WORKER.hits.clear()
    _WORKER.methods.clear()
    return _WORKER


ChunkResult = tuple[list[Any], list[bool], list[str], float]


def _judge_chunk(jobs: list[MathJob]) -> ChunkResult:
    """Judge each job in turn; its judgement (index 0, no id), the cache hits and methods
    the checker recorded, and the chunk's CPU seconds."""
    worker = _worker()
    started = time.process_time()

    async def judge_one(job: MathJob) -> Judgement[Any]:
        try:
            return await worker.judge.judge_text(
                0,
                None,
                job.reference,
                job.completion,
                job.extraction,
                job.after_reasoning,
                job.min_thinking_words,
            )
        except Exception as exc:  # a bug on one item must not lose the chunk
            reason = f"internal error while scoring: {type(exc).__name__}"
            return unjudged(0, None, Task.MATH, Status.ERROR, reason)

    async def judge_all() -> list[Judgement[Any]]:
        return [await judge_one(job) for job in jobs]

    judged = worker.loop.run_until_complete(judge_all())
    return judged, list(worker.hits), list(worker.methods), time.process_time() - started


def _check_chunk(pairs: list[tuple[str, str]]) -> ChunkResult:
    """The checker's verdict on each (reference, answer) pair."""
    worker = _worker()
    started = time.process_time()

    async def check_all() -> list[MathVerdict]:
        return [await worker.checker.check(reference, answer) for reference, answer in pairs]

    verdicts = worker.loop.run_until_complete(check_all())
    return verdicts, list(worker.hits), list(worker.methods), time.process_time() - started


def _warm_chunk(_: list[Any]) -> ChunkResult:
    _worker()
    return [], [], [], 0.0


class MathWorkers:
    """The math judge's worker processes and the fair scheduler in front of them.

    It also serves the checker's API (``check``, ``workers``, ``close``), so /grade, the
    LLM stage, the exploit canaries and the CLI go through the same workers."""

    def __init__(
        self,
        workers: int,
        timeout_s: float,
        memory_mb: int,
        cache_size: int,
        *,
        chunk_items: int = CHUNK_ITEMS,
        log_convention: LogConvention = LogConvention.REFERENCE,
        on_cache: CacheListener | None = None,
        on_method: MethodListener | None = None,
    ) -> None:
        self.workers = workers
        self.timeout_s = timeout_s
        self.chunk_items = chunk_items
        self._on_cache = on_cache
        self._on_method = on_method
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(
            ["sympy", "math_verify", "services.mathcheck.preload", "services.tasks.math.judge"]
        )
        self._pool = ProcessPool(
            max_workers=workers,
            initializer=_init_worker,
            initargs=(memory_mb, timeout_s, cache_size, log_convention),
            context=context,
        )
        self._flows: deque[_Flow] = deque()  # flows with chunks waiting, in turn
        self._open: set[_Flow] = set()
        self._running = 0
        self._item_s = _UNMEASURED_ITEM_S
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- the checker's API -------------------------------------------------------------

    async def check(
        self, reference: str, answer: str, gate: asyncio.Semaphore | None = None
    ) -> MathVerdict:
        """The checker's verdict on one pair, from a worker (``gate``: unused, the
        scheduler shares the workers)."""
        results = await self._run(_check_chunk, [(reference, answer)], self._check_failure)
        verdict: MathVerdict = results[0]
        return verdict

    def close(self) -> None:
        self._pool.stop()  # type: ignore[no-untyped-call]
        self._pool.join(timeout=5)

    async def warm(self) -> None:
        """Start every worker now, so the first request does not pay for it."""
        await asyncio.gather(
            *(
                asyncio.wrap_future(self._pool.schedule(_warm_chunk, args=([],)))
                for _ in range(self.workers)
            )
        )

    # -- judging -----------------------------------------------------------------------

    async def judge(self, jobs: Sequence[MathJob]) -> list[Judgement[Any]]:
        """Each job's judgement (index 0, no id: the caller sets them), in order; each
        distinct job is judged once."""
        distinct: dict[MathJob, int] = {}
        for job in jobs:
            distinct.setdefault(job, len(distinct))
        results = await self._run(_judge_chunk, list(distinct), self._judge_failure)
        return [results[distinct[job]] for job in jobs]

    def fair_wait_s(self, items: int) -> float:
        """About how long a new request of ``items`` would take, sharing the workers
        round-robin with the requests already open: while it is served, each of them is
        served as many items (or what it has left)."""
        ahead = sum(min(flow.remaining, items) for flow in self._open)
        return (items + ahead) * self._item_s / self.workers

    @property
    def item_s(self) -> float:
        """The recent worker seconds per item."""
        return self._item_s

    async def _run(
        self,
        function: Callable[[list[Any]], ChunkResult],
        payload: list[Any],
        failure: Callable[[Any, BaseException], Any],
    ) -> list[Any]:
        """``function`` over ``payload`` in chunks, as one flow; an item of a chunk that
        failed is retried on its own, and one that fails alone gets ``failure``'s result."""
        if not payload:
            return []
        self._loop = asyncio.get_running_loop()
        size = max(1, min(self.chunk_items, math.ceil(len(payload) / self.workers)))
        flow = _Flow(remaining=len(payload))
        self._open.add(flow)
        backstop = _CHUNK_BACKSTOP_LEAVES * self.timeout_s + _BACKSTOP_PER_ITEM_S * size
        single = _ITEM_BACKSTOP_LEAVES * self.timeout_s + 1.0

        async def chunk_of(items: list[Any]) -> list[Any]:
            timeout = backstop if len(items) > 1 else single
            try:
                results: list[Any] = await self._submit(flow, function, items, timeout)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an overrun, a dead worker, a bug: item by item
                if len(items) == 1:
                    return [failure(items[0], exc)]
                parts = await asyncio.gather(*(chunk_of([item]) for item in items))
                return [result for part in parts for result in part]
            flow.remaining -= len(items)
            return results

        try:
            chunks = [payload[at : at + size] for at in range(0, len(payload), size)]
            parts = await asyncio.gather(*(chunk_of(chunk) for chunk in chunks))
        finally:
            self._open.discard(flow)
            if flow in self._flows:
                self._flows.remove(flow)
            for chunk in flow.pending:
                chunk.future.cancel()
        return [result for part in parts for result in part]

    def _submit(
        self,
        flow: _Flow,
        function: Callable[[list[Any]], ChunkResult],
        items: list[Any],
        timeout_s: float,
    ) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        flow.pending.append(_Chunk(function, items, timeout_s, future))
        if flow not in self._flows:
            self._flows.append(flow)
        self._pump()
        return future

    def _pump(self) -> None:
        """Start chunks while a worker is free: the next chunk of the flow with the fewest
        chunks running, the first such flow in turn (round-robin among equals), so a new
        request takes the next free worker even when a large one holds them all."""
        while self._running < _CHUNKS_PER_WORKER * self.workers and self._flows:
            flow = min(self._flows, key=lambda flow: flow.running)
            self._flows.remove(flow)
            chunk = flow.pending.popleft()
            if flow.pending:
                self._flows.append(flow)
            if chunk.future.cancelled():
                continue
            self._running += 1
            flow.running += 1
            chunk.flow = flow
            scheduled = self._pool.schedule(
                chunk.function, args=(chunk.payload,), timeout=chunk.timeout_s
            )
            scheduled.add_done_callback(partial(self._done, chunk))

    def _done(self, chunk: _Chunk, done: concurrent.futures.Future[Any]) -> None:
        """In pebble's thread: hand the finished chunk to the event loop."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._finished, chunk, done)

    def _finished(self, chunk: _Chunk, done: concurrent.futures.Future[Any]) -> None:
        self._running -= 1
        if chunk.flow is not None:
            chunk.flow.running -= 1
        try:
            error = done.exception()
            if error is None:
                results, hits, methods, seconds = done.result()
                self._note(hits, methods, seconds, len(chunk.payload))
                if not chunk.future.done():
                    chunk.future.set_result(results)
            elif not chunk.future.done():
                chunk.future.set_exception(error)
        except concurrent.futures.CancelledError:
            if not chunk.future.done():
                chunk.future.cancel()
        finally:
            self._pump()

    def _note(self, hits: list[bool], methods: list[str], seconds: float, items: int) -> None:
        if items:
            self._item_s = (1 - _EWMA) * self._item_s + _EWMA * (seconds / items)
        if self._on_cache is not None:
            for hit in hits:
                self._on_cache(hit)
        if self._on_method is not None:
            for method in methods:
                self._on_method(method)

    def _judge_failure(self, job: MathJob, error: BaseException) -> Judgement[Any]:
        if isinstance(error, ProcessExpired):
            reason = "not judged: the math worker died on this item (out of memory or a crash)"
            return unjudged(0, None, Task.MATH, Status.ERROR, reason)
        if not isinstance(error, TimeoutError | concurrent.futures.TimeoutError):
            reason = f"internal error while scoring: {type(error).__name__}"
            return unjudged(0, None, Task.MATH, Status.ERROR, reason)
        backstop = _ITEM_BACKSTOP_LEAVES * self.timeout_s + 1.0
        reason = f"not judged: it ran past {backstop:g}s on its own; its worker was killed"
        return unjudged(0, None, Task.MATH, Status.TIMEOUT, reason)

    def _check_failure(self, pair: tuple[str, str], error: BaseException) -> MathVerdict:
        if isinstance(error, ProcessExpired):
            return MathVerdict(Outcome.ERROR, "symbolic", "the math worker died on this pair")
        if not isinstance(error, TimeoutError | concurrent.futures.TimeoutError):
            return MathVerdict(Outcome.ERROR, "symbolic", f"failed: {type(error).__name__}")
        return MathVerdict(
            Outcome.TIMEOUT, "symbolic", "the comparison overran its deadline; worker killed"
        )
