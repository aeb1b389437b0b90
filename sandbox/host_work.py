"""The host's own work on a program's tests, in worker processes shared fairly by requests.

Before and after a Python program's tests run in the sandbox, the host reads each assert
with ``ast`` into the program's side and the expected side (``sandbox/test_split.py``),
builds the jobs and the sealed tests (``sandbox/python_tests.py``), and judges the values
that come back (``sandbox/verdict.py``). For a GRPO step of 512 programs with tens of
asserts each that is seconds of CPU: on the event loop's thread it froze the service
(``/health`` unanswered for the whole of it) and held the host's share to one core.

It runs here instead, in ``processes`` worker processes (forkserver children, so the
service's threads are not copied into them). The event loop talks to each over a socket
of its own that it reads and writes without blocking (``add_reader``/``add_writer``; uvloop
makes the socket non-blocking anyway, so a message of megabytes goes in pieces as the
worker reads it): a call costs the loop its pickling and a few system calls, no thread
hand-offs (a ``ProcessPoolExecutor`` behind a thread pool cost the service's
process about 1 ms of CPU a call, 20 times the planning of a small program's tests).

- **Fair share.** Each flow (a request) has its own queue. A process that frees up takes
  the next calls of the flow with the fewest calls running, the flows in turn among equals,
  so a small request's tests are planned as soon as a process is free, not after every
  test of a large one.
- **Chunks.** The calls of one flow queued when a process frees up go to it together, as
  many as make about :data:`CHUNK_S` of work by the running average of what that function's
  calls have cost (at most :data:`MAX_CHUNK`): a turn of the event loop that starts 32
  programs sends a few messages, not 32, while a slow function's calls go one at a time and
  keep the turns fair.
- **Failures.** A process that dies (out of memory, a crash) is replaced. Every call it was
  running is tried once more, alone; a call that kills that process too raises
  :class:`~sandbox.errors.SandboxUnavailable` (its item says so), and the service goes on.
  An exception the function raises is the caller's, as if it had been called here.

The processes are bound to the event loop that uses them; when that loop has ended (one
``asyncio.run`` after another), the next loop takes them over.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from .errors import SandboxUnavailable

T = TypeVar("T")

# Work a message carries, by the running average of its function's calls: the dispatch of a
# message costs the event loop about 0.1 ms, so a few milliseconds of work make it small.
CHUNK_S = 0.005
# The most calls one message carries, however cheap they are.
MAX_CHUNK = 16
_AVERAGE_WEIGHT = 0.2  # of the newest call in a function's running average
_READ_BYTES = 1 << 20


def _ready() -> bool:
    return True


def _describe(error: BaseException) -> RuntimeError:
    return RuntimeError(f"{type(error).__name__}: {error}")


def _serve(conn: Connection) -> None:
    """A worker process: run each message's calls in order and send back their outcomes
    and the seconds they took, until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the service stops its workers itself
    while True:
        try:
            calls = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        outcomes: list[tuple[bool, Any, float]] = []
        for function, args in calls:
            start = time.perf_counter()
            try:
                outcome: tuple[bool, Any] = (True, function(*args))
            except Exception as error:  # the caller's, as if called in its own process
                outcome = (False, error)
            outcomes.append((*outcome, time.perf_counter() - start))
        try:
            reply = pickle.dumps(outcomes, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # a result or an exception that does not pickle
            reply = pickle.dumps(
                [_picklable(o) for o in outcomes], protocol=pickle.HIGHEST_PROTOCOL
            )
        conn.send_bytes(reply)


def _picklable(outcome: tuple[bool, Any, float]) -> tuple[bool, Any, float]:
    try:
        pickle.dumps(outcome[1])
        return outcome
    except Exception as error:
        return (False, _describe(error if outcome[0] else outcome[1]), outcome[2])


@dataclass(eq=False)
class _Call:
    flow: Hashable
    function: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    tries: int = 0
    alone: bool = False  # retried after its process died: sent in a message of its own


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    fd: int  # the connection's socket, non-blocking: the event loop reads and writes it
    calls: list[_Call] = field(default_factory=list)  # the message it is running
    inbox: bytearray = field(default_factory=bytearray)  # a reply, as far as it has come
    outbox: memoryview | None = None  # what is left to write of a message


class HostWork:
    """``processes`` worker processes for the host's CPU work, shared round-robin by flows."""

    def __init__(self, processes: int) -> None:
        self.processes = max(1, processes)
        self._context = multiprocessing.get_context("forkserver")
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting = 0
        # Insertion order is the rotation: a flow served goes to the back.
        self._queues: dict[Hashable, deque[_Call]] = {}
        self._running: dict[Hashable, int] = {}
        self._average_s: dict[Callable[..., Any], float] = {}
        self._dispatch_soon = False
        self._generation = 0
        self._closed = False

    async def call(self, flow: Hashable, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process, in ``flow``'s turn (``function`` and
        its arguments must pickle)."""
        loop = self._bind()
        future: asyncio.Future[T] = loop.create_future()
        self._queues.setdefault(flow, deque()).append(_Call(flow, function, args, future))
        self._schedule_dispatch(loop)
        return await future

    async def warm(self) -> None:
        """Start every process now, so the first request does not pay for it."""
        await asyncio.gather(*(self.call(object(), _ready) for _ in range(self.processes)))

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        loop = self._loop
        workers = [*self._idle, *self._busy]
        calls = [call for w in self._busy for call in w.calls]
        calls += [call for queue in self._queues.values() for call in queue]
        self._idle, self._busy, self._queues = [], set(), {}
        for worker in workers:
            worker.process.kill()
        for worker in workers:
            worker.process.join(timeout=5)
        closed = SandboxUnavailable("sandbox is closed")

        def detach() -> None:
            for worker in workers:
                if loop is not None and not loop.is_closed():
                    loop.remove_reader(worker.fd)
                    loop.remove_writer(worker.fd)
                worker.conn.close()  # a no-op where the worker was lost meanwhile
            for call in calls:
                _fail(call, closed)

        if loop is None or loop.is_closed() or _in_thread_of(loop):
            detach()
        else:  # the loop runs in another thread: its readers are its own to remove
            loop.call_soon_threadsafe(detach)

    # ------------------------------------------------------------------ dispatch

    def _bind(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if self._closed:
            raise SandboxUnavailable("sandbox is closed")
        if self._loop is loop:
            return loop
        old = self._loop
        if old is not None and old.is_running():
            raise RuntimeError("the host's worker processes serve another running event loop")
        # The last loop has ended, and its callers with it. A process still running one of
        # their messages would answer the next one with it: it goes.
        for worker in self._busy:
            _stop(worker)
        for worker in self._idle:
            if old is not None and not old.is_closed():
                old.remove_reader(worker.fd)
            loop.add_reader(worker.fd, self._on_readable, worker)
        self._busy.clear()
        self._queues.clear()
        self._running.clear()
        self._starting = 0
        self._dispatch_soon = False
        self._generation += 1
        self._loop = loop
        return loop

    def _schedule_dispatch(self, loop: asyncio.AbstractEventLoop) -> None:
        # Calls made in the same turn of the loop are dispatched together, next turn.
        if not self._dispatch_soon:
            self._dispatch_soon = True
            loop.call_soon(self._dispatch)

    def _dispatch(self) -> None:
        self._dispatch_soon = False
        if self._closed:
            return
        while self._idle and self._queues:
            self._send(self._idle.pop(), self._next_calls())
        missing = self.processes - len(self._busy) - len(self._idle) - self._starting
        queued = sum(len(q) for q in self._queues.values())
        for _ in range(min(missing, queued)):
            self._start_worker()

    def _next_calls(self) -> list[_Call]:
        """The next message: calls of the flow with the fewest running, as many of the same
        function as make about CHUNK_S of work (one while their cost is unknown)."""
        flow = min(self._queues, key=lambda f: self._running.get(f, 0))
        queue = self._queues.pop(flow)
        first = queue.popleft()
        calls = [first]
        average = self._average_s.get(first.function)
        if not first.alone and average is not None:
            limit = MAX_CHUNK if average <= 0 else max(1, min(MAX_CHUNK, int(CHUNK_S / average)))
            while (
                queue
                and len(calls) < limit
                and not queue[0].alone
                and queue[0].function is first.function
            ):
                calls.append(queue.popleft())
        if queue:
            self._queues[flow] = queue  # to the back of the rotation
        self._running[flow] = self._running.get(flow, 0) + len(calls)
        return calls

    def _send(self, worker: _Worker, calls: list[_Call]) -> None:
        live = []
        for call in calls:
            if call.future.done():  # its caller has gone
                self._ran(call)
            else:
                live.append(call)
        try:
            message = _message(live)
        except Exception:  # an argument that does not pickle fails its own call
            travels = []
            for call in live:
                try:
                    _message([call])
                    travels.append(call)
                except Exception as error:
                    self._ran(call)
                    _fail(call, TypeError(f"the call cannot reach the host's process: {error}"))
            live = travels
            message = _message(live)
        if not live:
            self._idle.append(worker)
            return
        self._busy.add(worker)
        worker.calls = live
        worker.outbox = memoryview(_framed(message))
        self._write(worker)

    def _write(self, worker: _Worker) -> None:
        """As much of the worker's message as its socket takes now; the rest when it is
        writable again (a message of megabytes goes in pieces while the worker reads)."""
        loop = self._loop
        assert loop is not None and worker.outbox is not None
        try:
            written = os.write(worker.fd, worker.outbox)
        except BlockingIOError:
            written = 0
        except OSError:
            self._lost(worker)
            return
        rest = worker.outbox[written:]
        if rest:
            loop.add_writer(worker.fd, self._write, worker)
            worker.outbox = rest
        else:
            loop.remove_writer(worker.fd)
            worker.outbox = None

    def _ran(self, call: _Call) -> None:
        left = self._running.get(call.flow, 0) - 1
        if left > 0:
            self._running[call.flow] = left
        else:
            self._running.pop(call.flow, None)

    def _on_readable(self, worker: _Worker) -> None:
        if self._closed:  # its process was stopped: close() settles the calls
            if self._loop is not None:
                self._loop.remove_reader(worker.fd)
            return
        while True:
            try:
                chunk = os.read(worker.fd, _READ_BYTES)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:  # the process has gone
                self._lost(worker)
                return
            worker.inbox += chunk
        reply = _unframed(worker.inbox)
        if reply is None:
            return  # more to come
        if worker.inbox or not worker.calls:  # a reply it was not asked for
            self._lost(worker)
            return
        try:
            outcomes = pickle.loads(reply)
        except Exception:
            self._lost(worker)
            return
        self._on_reply(worker, outcomes)

    def _on_reply(self, worker: _Worker, outcomes: list[tuple[bool, Any, float]]) -> None:
        calls, worker.calls = worker.calls, []
        self._busy.discard(worker)
        self._idle.append(worker)
        for call, (ok, value, seconds) in zip(calls, outcomes, strict=True):
            self._ran(call)
            average = self._average_s.get(call.function)
            self._average_s[call.function] = (
                seconds if average is None else average + _AVERAGE_WEIGHT * (seconds - average)
            )
            if call.future.done():
                continue
            if ok:
                call.future.set_result(value)
            else:
                call.future.set_exception(value)
        self._dispatch()

    def _lost(self, worker: _Worker) -> None:
        """The worker died: replace it, and try each of its calls once more, alone."""
        if self._loop is not None:
            self._loop.remove_reader(worker.fd)
            self._loop.remove_writer(worker.fd)
        _stop(worker)
        worker.inbox.clear()
        worker.outbox = None
        self._busy.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        calls, worker.calls = worker.calls, []
        died = SandboxUnavailable("the host process judging these tests died (out of memory?)")
        for call in reversed(calls):  # back to the front of their queues, in order
            self._ran(call)
            call.tries += 1
            if call.tries >= 2 or call.future.done():
                _fail(call, died)
                continue
            call.alone = True
            queue = self._queues.get(call.flow)
            if queue is None:
                self._queues[call.flow] = queue = deque()
            queue.appendleft(call)
        self._dispatch()

    def _start_worker(self) -> None:
        loop = self._loop
        assert loop is not None
        generation = self._generation
        self._starting += 1

        def spawn() -> _Worker:
            ours, theirs = self._context.Pipe()
            process = self._context.Process(
                target=_serve, args=(theirs,), daemon=True, name="sandbox-host"
            )
            process.start()
            theirs.close()
            os.set_blocking(ours.fileno(), False)
            return _Worker(process, ours, ours.fileno())

        def started(future: asyncio.Future[_Worker]) -> None:
            error = future.exception()
            if self._closed or self._generation != generation:
                if error is None:
                    _stop(future.result())
                return
            self._starting -= 1
            if error is not None:
                if not self._idle and not self._busy and not self._starting:
                    failed = SandboxUnavailable(f"the host's worker process did not start: {error}")
                    for queue in self._queues.values():
                        for call in queue:
                            _fail(call, failed)
                    self._queues.clear()
                    self._running.clear()
                return
            worker = future.result()
            loop.add_reader(worker.fd, self._on_readable, worker)
            self._idle.append(worker)
            self._dispatch()

        loop.run_in_executor(None, spawn).add_done_callback(started)


def _framed(message: bytes) -> bytes:
    """``message`` as ``Connection.recv_bytes`` reads it: its length first."""
    if len(message) > 0x7FFFFFFF:
        return struct.pack("!iQ", -1, len(message)) + message
    return struct.pack("!i", len(message)) + message


def _unframed(inbox: bytearray) -> bytes | None:
    """The message at the start of ``inbox`` once all of it has come (taken out of it), as
    ``Connection.send_bytes`` frames it; None until then."""
    if len(inbox) < 4:
        return None
    (size,) = struct.unpack_from("!i", inbox)
    start = 4
    if size == -1:
        if len(inbox) < 12:
            return None
        (size,) = struct.unpack_from("!Q", inbox, 4)
        start = 12
    if len(inbox) < start + size:
        return None
    message = bytes(inbox[start : start + size])
    del inbox[: start + size]
    return message


def _message(calls: list[_Call]) -> bytes:
    return pickle.dumps([(c.function, c.args) for c in calls], protocol=pickle.HIGHEST_PROTOCOL)


def _fail(call: _Call, error: BaseException) -> None:
    if not call.future.done():
        call.future.set_exception(error)


def _stop(worker: _Worker) -> None:
    worker.conn.close()
    worker.process.kill()
    worker.process.join(timeout=5)


def _in_thread_of(loop: asyncio.AbstractEventLoop | None) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return loop is not None and not loop.is_running()


__all__ = ["CHUNK_S", "MAX_CHUNK", "HostWork"]
