"""A process pool that runs symbolic comparisons under a hard per-item deadline.

A comparison that overruns its deadline has its worker killed and replaced (pebble does
the killing); the caller gets ``SymbolicTimeout`` and the pool keeps serving. Workers fork
from a server that has already imported sympy and math-verify and warmed up the parser
(``preload.py``), so a replacement is ready in milliseconds, and each worker runs under an
address-space limit so a memory-hungry expression fails with an error instead of taking
the host down.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import resource

from pebble import ProcessPool

from services.mathcheck.symbolic import LogConvention, SymbolicVerdict, symbolic_equal, warm_up


class SymbolicTimeout(Exception):
    """The comparison did not finish within its deadline; its worker was replaced."""


class SymbolicFailure(Exception):
    """The comparison raised, ran out of memory, or its worker died."""


def _init_worker(memory_mb: int) -> None:
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    warm_up()


def _compare(
    reference: str, answer: str, log_convention: LogConvention = LogConvention.REFERENCE
) -> SymbolicVerdict:
    return symbolic_equal(reference, answer, log_convention)


class SymbolicPool:
    """``log_convention``: what ``\\log`` without a base means to the symbolic engine
    (``symbolic.LogConvention``; the reference's convention unless set)."""

    def __init__(
        self,
        workers: int,
        timeout_s: float,
        memory_mb: int,
        log_convention: LogConvention = LogConvention.REFERENCE,
    ) -> None:
        self.workers = workers
        self.timeout_s = timeout_s
        self.log_convention = log_convention
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["sympy", "math_verify", "services.mathcheck.preload"])
        self._pool = ProcessPool(
            max_workers=workers,
            initializer=_init_worker,
            initargs=(memory_mb,),
            context=context,
        )

    async def warm(self) -> None:
        """Start every worker now, so the first request does not pay for it."""
        futures = [
            asyncio.wrap_future(self._pool.schedule(_compare, args=("1", "1")))
            for _ in range(self.workers)
        ]
        await asyncio.gather(*futures)

    async def compare(self, reference: str, answer: str) -> SymbolicVerdict:
        """Compare in a worker; raises SymbolicTimeout or SymbolicFailure."""
        future = self._pool.schedule(
            _compare,
            args=(reference, answer, self.log_convention),
            timeout=self.timeout_s,
        )
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
