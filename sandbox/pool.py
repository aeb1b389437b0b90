"""Warm worker processes on the host side: spawning, job round trips, recycling.

All methods block; the async API calls them from a thread pool so the event loop never
waits on a pipe. Worker processes are forked from one spawner thread per pool (see
``Spawner``), whichever thread asks for them.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

from . import frames, worker_main
from .errors import SandboxUnavailable
from .frames import ExitFrame, FrameError, Hello, Job, JobError, Reply, WorkerConfig
from .reaper import reap_adopted

WORKER_SOURCE = Path(worker_main.__file__).read_text(encoding="utf-8")
# The worker's modules, as the files hold them: the worker runs exactly these (in order).
WORKER_PIECES = json.dumps(
    {
        name: Path(worker_main.__file__).with_name(f"{name}.py").read_text(encoding="utf-8")
        for name in worker_main.PIECES
    }
)
START_TIMEOUT_S = 20.0
# The worker enforces the job's wall clock itself; this margin only catches a hung worker.
HOST_GRACE_S = 5.0
_T = TypeVar("_T")


class WorkerDied(Exception):
    pass


@dataclass(frozen=True)
class WorkerSpec:
    """How to start one worker. ``prefix`` is everything before
    ``python -I -c SRC PIECES CFG``."""

    prefix: Sequence[str]
    python: str
    config: WorkerConfig
    drop_uid: bool  # the service is root: slot i runs as uid_base + i
    uid_base: int
    host_scratch: bool = False  # NONE isolation: a private host dir per worker
    bwrap: bool = True

    def command(self, slot: int, base: str | None, info_fd: int | None) -> list[str]:
        prefix = list(self.prefix)
        if info_fd is not None:  # bwrap reports the sandboxed worker's host pid here
            prefix[1:1] = ["--info-fd", str(info_fd)]
        cfg = self.config.copy()
        if self.drop_uid:
            cfg["uid"] = self.uid_base + slot
        if base:  # NONE isolation: scratch (and the q licence copy) live in a host dir
            cfg["scratch"] = os.path.join(base, "s")
            if cfg.get("qlic") == "":
                cfg["qlic"] = os.path.join(base, "qlic")
        return [*prefix, self.python, "-I", "-c", WORKER_SOURCE, WORKER_PIECES, json.dumps(cfg)]


def _read_child_pid(fd: int) -> int | None:
    """bwrap's --info-fd JSON: {"child-pid": N, ...}."""
    data = b""
    while b"}" not in data and select.select([fd], [], [], 2.0)[0]:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    try:
        pid = json.loads(data[: data.index(b"}") + 1]).get("child-pid")
    except ValueError:
        return None
    return pid if isinstance(pid, int) else None


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return ""


class Spawner:
    """The one thread that forks a pool's worker processes.

    bwrap's ``--die-with-parent`` is PR_SET_PDEATHSIG, and the "parent" it watches is the
    thread that forked bwrap, not that thread's process: a worker forked from a short-lived
    thread (a request's executor thread, a warm-up thread) is killed when that thread exits.
    Every fork goes through this thread instead, which lives as long as the pool has
    workers. The workers still die with the service process: its death ends this thread.
    Only the fork happens here; callers wait for the worker's hello on their own threads.
    """

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-spawner")

    def run(self, fork: Callable[[], _T]) -> _T:
        """``fork()`` called on the spawner thread."""
        try:
            started = self._thread.submit(fork)
        except RuntimeError as exc:  # stopped, or the interpreter is shutting down
            raise SandboxUnavailable("sandbox is closed") from exc
        return started.result()

    def stop(self) -> None:
        """End the thread; only once no worker it started is alive (they would die too)."""
        self._thread.shutdown(wait=True)


class WorkerProcess:
    def __init__(self, spec: WorkerSpec, slot: int, spawner: Spawner) -> None:
        self.slot = slot
        self.jobs = 0
        self._scratch = tempfile.mkdtemp(prefix="sbx-") if spec.host_scratch else None
        if self._scratch:
            os.chmod(self._scratch, 0o711)  # the worker's uid must traverse it
        # A file, not a pipe: a chatty worker can never block on a full stderr pipe.
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        info_r, info_w = os.pipe() if spec.bwrap and spec.prefix else (-1, -1)
        try:
            argv = spec.command(slot, self._scratch, info_w if info_w >= 0 else None)
            self.proc = spawner.run(
                lambda: subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self._stderr,
                    close_fds=True,
                    pass_fds=(info_w,) if info_w >= 0 else (),
                    start_new_session=True,
                    env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                )
            )
        except (OSError, SandboxUnavailable) as exc:
            self._stderr.close()
            if self._scratch:
                shutil.rmtree(self._scratch, ignore_errors=True)
            if isinstance(exc, SandboxUnavailable):
                raise
            raise SandboxUnavailable(f"cannot start sandbox worker: {exc}") from exc
        finally:
            if info_w >= 0:
                os.close(info_w)
        # The sandboxed worker itself; bwrap's pid is self.proc.pid.
        self.worker_pid: int | None = None if info_r >= 0 else self.proc.pid
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._w = self.proc.stdin.fileno()
        self._r = self.proc.stdout.fileno()
        try:
            self.info: Hello = frames.parse_hello(self._recv(START_TIMEOUT_S))
        except (WorkerDied, FrameError) as exc:
            self.kill()
            raise SandboxUnavailable(f"sandbox worker failed to start: {exc}") from exc
        finally:
            if info_r >= 0:
                self.worker_pid = _read_child_pid(info_r)
                os.close(info_r)

    def _diagnostics(self) -> str:
        try:
            self._stderr.seek(0)
            return self._stderr.read()[-2000:].decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def _recv(self, timeout: float) -> object:
        """The next frame's JSON value (not yet checked against its type)."""
        ready, _, _ = select.select([self._r], [], [], timeout)
        if not ready:
            raise WorkerDied(f"no answer within {timeout:.1f} s")
        try:
            frame = frames.read_frame(self._r)
        except (OSError, ValueError) as exc:
            frame = None
            err = str(exc)
        else:
            err = "worker exited"
        if frame is None:
            self.proc.poll()
            raise WorkerDied(f"{err} (status {self.proc.returncode}): {self._diagnostics()}")
        return frame

    def run(self, job: Job, timeout: float) -> Reply:
        try:
            frames.write_job(self._w, job)
        except OSError as exc:
            raise WorkerDied(f"cannot send job: {exc}") from exc
        try:
            result = frames.parse_reply(self._recv(timeout))
        except FrameError as exc:
            raise WorkerDied(f"bad reply: {exc}") from exc
        self.jobs += 1
        return result

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Ask the worker to exit (it kills its jobs first); force-kill if it lingers."""
        if self.alive():
            try:
                bye: ExitFrame = {"op": "exit"}
                frames.write_frame(self._w, bye)
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def kill(self) -> None:
        # The worker first: as root, bwrap cannot deliver --die-with-parent's signal to a
        # worker that dropped to another uid, so killing bwrap alone would orphan it.
        if self.worker_pid and _comm(self.worker_pid) == "sbx-worker":
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.worker_pid, signal.SIGKILL)
        if self.alive():
            # bwrap's --die-with-parent takes the sandbox down with it.
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self._stderr):
            if stream is not None:
                stream.close()
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)


class WorkerPool:
    """Up to ``size`` warm workers for one spec; LIFO reuse keeps the hot ones hot."""

    def __init__(
        self,
        spec: WorkerSpec,
        size: int,
        recycle_after: int,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.spec = spec
        self.size = max(1, size)
        self.recycle_after = max(1, recycle_after)
        self._idle: list[WorkerProcess] = []
        self._live: set[WorkerProcess] = set()
        self._busy = 0
        self._free_slots = list(range(self.size - 1, -1, -1))
        self._cond = threading.Condition()
        self._closed = False
        self._on_close = on_close
        self._spawner = Spawner()
        self.spawned = 0
        self.retired = 0

    def _acquire(self) -> WorkerProcess:
        with self._cond:
            while True:
                if self._closed:
                    raise SandboxUnavailable("sandbox is closed")
                if self._idle:
                    self._busy += 1
                    return self._idle.pop()
                if self._free_slots:
                    slot = self._free_slots.pop()
                    self._busy += 1
                    break
                self._cond.wait()
        return self._spawn(slot)

    def _spawn(self, slot: int) -> WorkerProcess:
        """Start a worker in ``slot``, already counted busy; on failure give the slot back."""
        try:
            worker = WorkerProcess(self.spec, slot, self._spawner)
        except BaseException:
            with self._cond:
                self._busy -= 1
                self._free_slots.append(slot)
                self._cond.notify()
            self._stop_spawner_when_done()
            raise
        self.spawned += 1
        with self._cond:
            self._live.add(worker)
        return worker

    def _release(self, worker: WorkerProcess, healthy: bool) -> None:
        recycle = not healthy or worker.jobs >= self.recycle_after or not worker.alive()
        if recycle:
            if healthy:
                worker.close()
            else:
                worker.kill()
            self.retired += 1
            reap_adopted(skip=())
        with self._cond:
            self._busy -= 1
            if recycle:
                self._live.discard(worker)
            if recycle or self._closed:
                self._free_slots.append(worker.slot)
            else:
                self._idle.append(worker)
            self._cond.notify()
        if self._closed and not recycle:
            worker.close()
            with self._cond:
                self._live.discard(worker)
        self._stop_spawner_when_done()

    def _stop_spawner_when_done(self) -> None:
        """Once closed and every worker is gone (or about to be), end the spawner thread."""
        with self._cond:
            done = self._closed and self._busy == 0 and not self._live
        if done:
            self._spawner.stop()

    def run(self, job: Job, wall_s: float) -> Reply:
        worker = self._acquire()
        try:
            result = worker.run(job, wall_s + HOST_GRACE_S)
        except WorkerDied as exc:
            self._release(worker, healthy=False)
            failed: JobError = {
                "error": f"sandbox worker failed during the job and was replaced: {exc}"
            }
            return failed
        except BaseException:
            self._release(worker, healthy=False)
            raise
        self._release(worker, healthy="error" not in result)
        return result

    def warm(self, count: int | None = None) -> None:
        """Start workers ahead of time (up to ``count``, default all)."""
        want = min(self.size, count or self.size)
        while True:
            # New workers in free slots: taking an idle one (as _acquire would) adds none.
            with self._cond:
                if self._closed or len(self._idle) + self._busy >= want or not self._free_slots:
                    return
                slot = self._free_slots.pop()
                self._busy += 1
            self._release(self._spawn(slot), healthy=True)

    def host_pids(self) -> list[int]:
        """Host pids of the sandboxed worker processes (diagnostics, tests)."""
        with self._cond:
            return [w.worker_pid for w in self._live if w.alive() and w.worker_pid]

    def alive(self) -> int:
        with self._cond:
            return sum(1 for w in self._idle if w.alive()) + self._busy

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for w in idle:
            w.close()
            with self._cond:
                self._live.discard(w)
        self._stop_spawner_when_done()
        reap_adopted(skip=())
        if self._on_close:
            self._on_close()
