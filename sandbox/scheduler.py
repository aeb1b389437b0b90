"""Fair dispatch of sandbox jobs: round-robin across flows (a flow is one request).

A plain thread pool runs jobs first come, first served, so one request with many tests (or
many programs that spin to their timeout) holds every worker while a later request's
short tests wait behind all of them. Here each flow has its own queue and the threads take
the next job from the flows in turn: a new request waits for at most one job of each
request ahead of it, not for their backlogs.

The flow of a job is ``current_flow`` (a context variable the scorer sets per request);
where none is set, each :meth:`FairScheduler.submit` caller passes its own.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

# The request a job belongs to; None: the caller is a flow of its own.
current_flow: ContextVar[Hashable | None] = ContextVar("sandbox_flow", default=None)

_Job = tuple[Callable[[], Any], "Future[Any]"]


class FairScheduler:
    """``threads`` threads that run submitted calls, taking flows round-robin."""

    def __init__(self, threads: int, name: str = "sandbox") -> None:
        # Insertion order is the rotation: a flow served goes to the back.
        self._queues: dict[Hashable, deque[_Job]] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._serve, name=f"{name}-{i}", daemon=True)
            for i in range(max(1, threads))
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, flow: Hashable, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        with self._cond:
            if self._closed:
                raise RuntimeError("the scheduler is shut down")
            self._queues.setdefault(flow, deque()).append((lambda: fn(*args), future))
            self._cond.notify()
        return future

    def queued(self) -> int:
        """Jobs waiting for a thread (not counting those running)."""
        with self._cond:
            return sum(len(queue) for queue in self._queues.values())

    def shutdown(self) -> None:
        """Stop taking jobs; queued ones are cancelled, running ones finish."""
        with self._cond:
            self._closed = True
            queues, self._queues = self._queues, {}
            self._cond.notify_all()
        for queue in queues.values():
            for _call, future in queue:
                future.cancel()

    def _take(self) -> _Job | None:
        with self._cond:
            while not self._queues:
                if self._closed:
                    return None
                self._cond.wait()
            flow = next(iter(self._queues))
            queue = self._queues.pop(flow)
            job = queue.popleft()
            if queue:
                self._queues[flow] = queue
            return job

    def _serve(self) -> None:
        while (job := self._take()) is not None:
            call, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = call()
            except BaseException as exc:  # handed to the waiter, as a thread pool does
                future.set_exception(exc)
            else:
                future.set_result(result)
