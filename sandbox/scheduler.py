"""Fair dispatch of sandbox jobs across flows (a flow is one request).

A plain thread pool runs jobs first come, first served, so one request with many tests (or
many programs that spin to their timeout) holds every worker while a later request's
short tests wait behind all of them. Here each flow has its own queue, and a thread that
frees up takes the next job of the flow with the fewest jobs running (the flows in turn
among equals). A new request then waits only for the first worker to free up, and keeps
it while its jobs last: one request's spinners cannot hold every worker while another
request waits, and its short jobs do not alternate with the spinners' long ones.

The flow of a job is ``current_flow`` (a context variable the scorer sets per request);
where none is set, each :meth:`FairScheduler.submit` caller passes its own.

A flow may be metered (:meth:`FairScheduler.metered`): the scheduler then adds up the
seconds its jobs have held a thread, running ones included, so admission control can
learn what a request costs and how much of an admitted one is still to run.

Queue waits (from a job's submission to a thread taking it) go to ``on_wait`` for every
job, and a metered flow's longest to ``on_flow_wait`` when its metering ends (a flow none
of whose jobs ran reports nothing): the observers are plain callables, so the caller's
metrics stay the caller's.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

# The request a job belongs to; None: the caller is a flow of its own.
current_flow: ContextVar[Hashable | None] = ContextVar("sandbox_flow", default=None)

# The call, its future, and when it was queued.
_Job = tuple[Callable[[], Any], "Future[Any]", float]


class FairScheduler:
    """``threads`` threads that run submitted calls, the flow with the fewest running first."""

    def __init__(
        self,
        threads: int,
        name: str = "sandbox",
        *,
        on_wait: Callable[[float], None] | None = None,
        on_flow_wait: Callable[[float], None] | None = None,
    ) -> None:
        self._on_wait = on_wait
        self._on_flow_wait = on_flow_wait
        # Insertion order is the rotation: a flow served goes to the back.
        self._queues: dict[Hashable, deque[_Job]] = {}
        self._running: dict[Hashable, int] = {}
        # Metered flows: the seconds their finished jobs held a thread; and what each
        # thread runs now (its flow and since when).
        self._served: dict[Hashable, float] = {}
        self._busy: dict[int, tuple[Hashable, float]] = {}
        # Metered flows some of whose jobs have run: the longest any of them waited.
        self._longest: dict[Hashable, float] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._serve, args=(i,), name=f"{name}-{i}", daemon=True)
            for i in range(max(1, threads))
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, flow: Hashable, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        with self._cond:
            if self._closed:
                raise RuntimeError("the scheduler is shut down")
            job = (lambda: fn(*args), future, time.monotonic())
            self._queues.setdefault(flow, deque()).append(job)
            self._cond.notify()
        return future

    @property
    def threads(self) -> int:
        return len(self._threads)

    @contextmanager
    def metered(self, flow: Hashable) -> Iterator[Callable[[], float]]:
        """Meter ``flow`` while the block runs; yields what tells its jobs' thread-seconds
        so far (running jobs count up to now)."""
        with self._cond:
            self._served[flow] = 0.0
        try:
            yield lambda: self.served_s(flow)
        finally:
            with self._cond:
                del self._served[flow]
                longest = self._longest.pop(flow, None)
            if longest is not None and self._on_flow_wait is not None:
                self._on_flow_wait(longest)

    def served_s(self, flow: Hashable) -> float:
        """The seconds a metered flow's jobs have held a thread (0: not metered)."""
        now = time.monotonic()
        with self._cond:
            if flow not in self._served:
                return 0.0
            running = sum(now - since for f, since in self._busy.values() if f == flow)
            return self._served[flow] + running

    def queued(self) -> int:
        """Jobs waiting for a thread (not counting those running)."""
        with self._cond:
            return sum(len(queue) for queue in self._queues.values())

    def longest_wait_s(self) -> float:
        """How long the oldest job still queued has waited for a thread (0: none queued)."""
        with self._cond:
            if not self._queues:
                return 0.0
            return time.monotonic() - min(queue[0][2] for queue in self._queues.values())

    def shutdown(self) -> None:
        """Stop taking jobs; queued ones are cancelled, running ones finish."""
        with self._cond:
            self._closed = True
            queues, self._queues = self._queues, {}
            self._cond.notify_all()
        for queue in queues.values():
            for _call, future, _queued in queue:
                future.cancel()

    def _take(self, thread: int) -> tuple[Hashable, _Job, float] | None:
        """The next job, its flow, and how long it waited for a thread (None: shut down)."""
        with self._cond:
            while not self._queues:
                if self._closed:
                    return None
                self._cond.wait()
            flow = min(self._queues, key=lambda f: self._running.get(f, 0))
            queue = self._queues.pop(flow)
            job = queue.popleft()
            if queue:
                self._queues[flow] = queue
            self._running[flow] = self._running.get(flow, 0) + 1
            now = time.monotonic()
            self._busy[thread] = (flow, now)
            waited = now - job[2]
            if flow in self._served:
                self._longest[flow] = max(waited, self._longest.get(flow, 0.0))
            return flow, job, waited

    def _done(self, flow: Hashable, thread: int) -> None:
        with self._cond:
            _flow, since = self._busy.pop(thread)
            if flow in self._served:
                self._served[flow] += time.monotonic() - since
            self._running[flow] -= 1
            if not self._running[flow]:
                del self._running[flow]

    def _serve(self, thread: int) -> None:
        while (taken := self._take(thread)) is not None:
            flow, (call, future, _queued), waited = taken
            try:
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    if self._on_wait is not None:
                        self._on_wait(waited)
                    result = call()
                except BaseException as exc:  # handed to the waiter, as a thread pool does
                    future.set_exception(exc)
                else:
                    future.set_result(result)
            finally:
                self._done(flow, thread)
