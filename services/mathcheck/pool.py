"""A process pool that runs symbolic comparisons under a hard per-item deadline.

Comparisons requested in the same event-loop turn are sent to the workers in chunks (one
task carries up to ``chunk_size`` of them, spread so that every worker gets a share):
scheduling a task, its acknowledgement and its result cost the service process's event
loop and pebble's threads about as much as a fast comparison itself, so one task per
comparison caps how many comparisons one service process can feed its workers.

Inside a worker each comparison runs under its own deadline (a timer signal; sympy is
Python code, so it is interrupted between bytecodes) and a chunk's task has a deadline of
its own as a backstop: a comparison stuck where the signal cannot reach it has its worker
killed and replaced (pebble does the killing), and the comparisons of that chunk are then
retried one task each, so only the stuck one fails. The caller gets ``SymbolicTimeout``
and the pool keeps serving. Workers fork from a server that has already imported sympy
and math-verify, so a replacement is ready in milliseconds, and each worker runs under an
address-space limit so a memory-hungry expression fails with an error instead of taking
the host down.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import resource
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from pebble import ProcessPool

from services.mathcheck.symbolic import SymbolicVerdict, symbolic_equal, warm_up


class SymbolicTimeout(Exception):
    """The comparison did not finish within its deadline; its worker was replaced."""


class SymbolicFailure(Exception):
    """The comparison raised, ran out of memory, or its worker died."""


def _init_worker(memory_mb: int) -> None:
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    warm_up()


class _Overrun(BaseException):
    """Raised in a worker when one comparison's deadline passes (a BaseException, so that
    no ``except Exception`` inside sympy or math-verify swallows it)."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _Overrun


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class _Failed:
    """A comparison of a chunk that did not produce a verdict, and why."""

    timeout: bool
    reason: str


_Job = tuple[str, str, tuple[str, str] | None]


def _compare_chunk(jobs: list[_Job], timeout_s: float) -> list[SymbolicVerdict | _Failed]:
    """Each comparison of a chunk under its own deadline, in the worker."""
    results: list[SymbolicVerdict | _Failed] = []
    for reference, answer, normalized in jobs:
        try:
            with _deadline(timeout_s):
                results.append(_compare(reference, answer, normalized))
        except _Overrun:
            results.append(_Failed(True, f"symbolic comparison exceeded {timeout_s:g}s"))
        except MemoryError:
            results.append(_Failed(False, "symbolic comparison ran out of memory"))
        except Exception as exc:  # a sympy bug fails this comparison only
            results.append(_Failed(False, f"symbolic comparison failed: {type(exc).__name__}"))
    return results


def _compare(reference: str, answer: str, normalized: tuple[str, str] | None) -> SymbolicVerdict:
    verdict = symbolic_equal(reference, answer)
    # The normalised strings (units, "x =" and \\text{} stripped) are a second chance for
    # answers the parser could not read; a parsed "not equal" stands.
    if not verdict.equal and not verdict.parsed and normalized is not None:
        retry = symbolic_equal(*normalized)
        if retry.equal:
            return retry
    return verdict


class SymbolicPool:
    def __init__(self, workers: int, timeout_s: float, memory_mb: int, chunk_size: int = 8) -> None:
        self.workers = workers
        self.timeout_s = timeout_s
        self.chunk_size = chunk_size
        self._pending: list[tuple[_Job, asyncio.Future[SymbolicVerdict]]] = []
        self._flush_scheduled = False
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["sympy", "math_verify", "services.mathcheck.symbolic"])
        self._pool = ProcessPool(
            max_workers=workers,
            initializer=_init_worker,
            initargs=(memory_mb,),
            context=context,
        )

    async def warm(self) -> None:
        """Start every worker now, so the first request does not pay for it."""
        futures = [
            asyncio.wrap_future(self._pool.schedule(_compare, args=("1", "1", None)))
            for _ in range(self.workers)
        ]
        await asyncio.gather(*futures)

    async def compare(
        self, reference: str, answer: str, normalized: tuple[str, str] | None = None
    ) -> SymbolicVerdict:
        """Compare in a worker; raises SymbolicTimeout or SymbolicFailure."""
        if self.chunk_size <= 1:
            return await self._compare_alone((reference, answer, normalized))
        loop = asyncio.get_running_loop()
        future: asyncio.Future[SymbolicVerdict] = loop.create_future()
        self._pending.append(((reference, answer, normalized), future))
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return await future

    def _flush(self) -> None:
        """Send what this loop turn asked for: chunks of at most ``chunk_size``, and at
        least as many chunks as there are workers while there is enough work for that."""
        self._flush_scheduled = False
        pending = [(job, future) for job, future in self._pending if not future.done()]
        self._pending = []
        if not pending:
            return
        size = min(self.chunk_size, -(-len(pending) // self.workers))
        for start in range(0, len(pending), size):
            chunk = pending[start : start + size]
            task = asyncio.ensure_future(self._run_chunk(chunk))
            task.add_done_callback(_surface_bug)

    async def _run_chunk(self, chunk: list[tuple[_Job, asyncio.Future[SymbolicVerdict]]]) -> None:
        jobs = [job for job, _ in chunk]
        backstop = self.timeout_s * len(jobs) + 1.0
        try:
            results = await asyncio.wrap_future(
                self._pool.schedule(_compare_chunk, args=(jobs, self.timeout_s), timeout=backstop)
            )
        except Exception:
            # The worker was killed (a comparison the timer could not interrupt) or died:
            # each comparison gets a task of its own, so only the culprit fails.
            await asyncio.gather(*(self._settle_alone(job, future) for job, future in chunk))
            return
        for (_, future), result in zip(chunk, results, strict=True):
            if future.done():  # the caller gave up (its batch deadline passed)
                continue
            if isinstance(result, _Failed):
                error = SymbolicTimeout if result.timeout else SymbolicFailure
                future.set_exception(error(result.reason))
            else:
                future.set_result(result)

    async def _settle_alone(self, job: _Job, future: asyncio.Future[SymbolicVerdict]) -> None:
        if future.done():
            return
        try:
            result = await self._compare_alone(job)
        except Exception as exc:  # the caller gets it, as from a comparison of its own
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(result)

    async def _compare_alone(self, job: _Job) -> SymbolicVerdict:
        """One comparison as one task, under pebble's deadline."""
        future = self._pool.schedule(_compare, args=job, timeout=self.timeout_s)
        try:
            result: SymbolicVerdict = await asyncio.wrap_future(future)
        except (TimeoutError, concurrent.futures.TimeoutError) as exc:
            raise SymbolicTimeout(f"symbolic comparison exceeded {self.timeout_s:g}s") from exc
        except MemoryError as exc:
            raise SymbolicFailure("symbolic comparison ran out of memory") from exc
        except concurrent.futures.CancelledError:
            raise
        except Exception as exc:  # a worker crash or a sympy bug must fail one item only
            raise SymbolicFailure(f"symbolic comparison failed: {type(exc).__name__}") from exc
        return result

    def close(self) -> None:
        self._pool.stop()  # type: ignore[no-untyped-call]
        self._pool.join(timeout=5)


def _surface_bug(task: asyncio.Task[None]) -> None:
    """A chunk task never raises by design; if it does, the log says so."""
    if not task.cancelled() and task.exception() is not None:
        task.get_loop().call_exception_handler(
            {"message": "symbolic chunk dispatch failed", "exception": task.exception()}
        )
