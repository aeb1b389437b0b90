"""Python in the sandbox: the host plans each test's jobs and judges their replies.

Splitting the asserts, planning the jobs and judging the replies (``sandbox/python_tests.py``)
is the host's CPU work: it runs in the host's worker processes (``sandbox/host_work.py``),
in the request's turn. Expected sides that are not literals are computed in a pool of
reference workers of their own, which never run a program.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence

from .errors import SandboxUnavailable
from .host_work import HostWork
from .language_runner import LanguageRunner, Turn, Workers, WorkerSetup, job_limits
from .models import Language, Limits, TestCase, TestOutcome
from .pool import WorkerPool
from .python_tests import judge_tests, plan_tests

# Reference workers get their own uid range (Python pool: +0, q pool: +1000).
REFERENCE_UID_OFFSET = 2000


class PythonRunner(LanguageRunner):
    language = Language.PYTHON

    def __init__(self, workers: Workers) -> None:
        super().__init__(workers)
        self._lock = threading.Lock()
        self._closed = False
        # Expected sides that are not literals are computed here, in workers that never
        # run a program: no program can find their values in a worker's memory.
        self._references: WorkerPool | None = None
        # The host's CPU work on Python tests, in processes of its own (started on first use).
        self._host_work: HostWork | None = None

    def worker_setup(self) -> WorkerSetup:
        return WorkerSetup()  # the sandbox's Python is all a Python worker needs

    async def run_tests(
        self, program: str, tests: Sequence[TestCase], limits: Limits, turn: Turn
    ) -> list[TestOutcome]:
        host = self._host()
        plans = await host.call(turn.flow, plan_tests, program, list(tests), job_limits(limits))
        references = [p.reference for p in plans if p.reference is not None]
        ref_pool = self._references
        if references and ref_pool is None:
            ref_pool = await self.workers.blocking(self._reference_pool)
        replies = await asyncio.gather(
            *(turn.run(p.job) for p in plans),
            *(
                self.workers.submit(turn.flow, ref_pool, r, limits.wall_s)
                for r in references
                if ref_pool is not None
            ),
        )
        by_reference = iter(replies[len(plans) :])
        got = [
            [reply, *([next(by_reference)] if p.reference else [])]
            for p, reply in zip(plans, replies, strict=False)
        ]
        return await host.call(turn.flow, judge_tests, plans, got, limits)

    async def warm(self) -> None:
        """Start the host's own processes now instead of on the first request."""
        await self._host().warm()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            host_work = self._host_work
        if host_work is not None:
            host_work.close()

    def _host(self) -> HostWork:
        """The host's worker processes: one per sandbox worker, up to the cores this
        process may run on."""
        with self._lock:
            if self._closed:
                raise SandboxUnavailable("sandbox is closed")
            if self._host_work is None:
                cores = len(os.sched_getaffinity(0))
                self._host_work = HostWork(min(max(1, self.workers.config.workers), cores))
            return self._host_work

    def _reference_pool(self) -> WorkerPool:
        with self._lock:
            if self._references is None:
                self._references = self.workers.pool(self.language, REFERENCE_UID_OFFSET)
            return self._references
