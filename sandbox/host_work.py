"""The host's own work on a program's tests, in worker processes shared fairly by requests.

Before and after a Python program's tests run in the sandbox, the host reads each assert
with ``ast`` into the program's side and the expected side (``sandbox/test_split.py``),
builds the jobs and the sealed tests (``sandbox/python_tests.py``), and judges the values
that come back (``sandbox/verdict.py``). For a GRPO step of 512 programs with tens of
asserts each that is seconds of CPU: on the event loop's thread it froze the service
(``/health`` unanswered for the whole of it) and held the host's share to one core.

It runs here instead, in ``processes`` worker processes (forkserver children, so the
service's threads are not copied into them), one call per program's tests: a call carries
all the tests of one ``Sandbox.run_tests``, so dispatch costs little beside the work. The
calls of concurrent requests are taken in turn by the sandbox's fair scheduler
(:class:`~sandbox.scheduler.FairScheduler`, the request's flow first among those with the
fewest calls running), two calls a process at most (one running, one waiting in its queue),
so a small request's tests are planned as soon as a process is free, not after every test
of a large request. A worker that dies (out of memory, a crash) is replaced and the call it
was running is tried once more; a call that kills that one too raises
:class:`~sandbox.errors.SandboxUnavailable` (its item says so), and the service goes on.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from .errors import SandboxUnavailable
from .scheduler import FairScheduler

T = TypeVar("T")
# Calls dispatched per process: one running and one waiting, so a process does not idle
# through the round trip of a result.
_CALLS_PER_PROCESS = 2


def _ready() -> bool:
    return True


class HostWork:
    """``processes`` worker processes for the host's CPU work, shared round-robin by flows."""

    def __init__(self, processes: int) -> None:
        self.processes = max(1, processes)
        self._context = multiprocessing.get_context("forkserver")
        self._lock = threading.Lock()
        self._pool = self._new_pool()
        self._scheduler = FairScheduler(_CALLS_PER_PROCESS * self.processes, name="sandbox-host")
        self._closed = False

    async def call(self, flow: Hashable, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process, in ``flow``'s turn (``function`` and
        its arguments must pickle)."""
        loop = asyncio.get_running_loop()
        future = self._scheduler.submit(flow, self._run, function, *args)
        return await asyncio.wrap_future(future, loop=loop)

    async def warm(self) -> None:
        """Start every process now, so the first request does not pay for it."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        await asyncio.gather(
            *(asyncio.wrap_future(pool.submit(_ready), loop=loop) for _ in range(self.processes))
        )

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._scheduler.shutdown()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.processes, mp_context=self._context)

    def _run(self, function: Callable[..., T], *args: Any) -> T:
        """In a scheduler thread: the call in a process, again in a fresh pool where the
        process died."""
        for _ in range(2):
            pool = self._pool
            try:
                return pool.submit(function, *args).result()
            except BrokenProcessPool:
                with self._lock:
                    if self._closed:
                        break
                    if self._pool is pool:
                        self._pool = self._new_pool()
                        pool.shutdown(wait=False, cancel_futures=True)
        raise SandboxUnavailable("the host process judging these tests died (out of memory?)")
