"""The worker's supervisor: it sets the worker up and runs one job at a time.

Stdlib only: shipped to the worker as source (``sandbox/worker_main.py``).

Per job the worker forks a child that starts a new session, applies rlimits, chdirs into a
fresh job directory, and either runs Python source in the forked interpreter (fast: no
exec, no interpreter start-up; ``sandbox/python_harness.py``) or execs a binary (q). The
worker enforces the wall-clock deadline, the CPU budget and the output cap, then kills
every process the job left behind and wipes the scratch directory.
"""

import contextlib
import errno
import fcntl
import gc
import os
import select
import shutil
import signal
import stat
import sys
import time
from typing import Any

from .frames import (
    FrameError,
    Hello,
    Job,
    JobLimits,
    JobResult,
    Reply,
    WorkerConfig,
    parse_job,
    read_frame,
    write_frame,
)
from .job_process import (
    PR_SET_CHILD_SUBREAPER,
    PR_SET_DUMPABLE,
    PR_SET_NAME,
    PR_SET_PDEATHSIG,
    REPORT_FD,
    SEALED_FD,
    prctl,
    set_limits,
)
from .python_harness import OpaqueTest, ProgramServer, SplitHarness, run_python
from .q_license_copy import install_license, license_env

JOB_DIR = "job"
# The most of a job's report (``REPORT_FD``) kept; a longer one is cut and no longer parses.
REPORT_CAP = 8 * 1024 * 1024
# How often a job's CPU is read while its CPU budget, not the wall clock, is the limit.
CPU_POLL_S = 0.02
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# Bound at worker start-up, before any program runs: a program may replace os._exit.
_exit = os._exit


def _wipe(path: str) -> None:
    """Remove everything under ``path`` (a job may chmod its files to block removal).

    Mount points (a read-only host directory bound under the scratch dir) and the
    directories holding them are kept: only what lives on the scratch filesystem goes.
    """

    def fix(func: Any, p: str, _exc: Any) -> None:
        try:
            os.chmod(os.path.dirname(p), 0o700)
            os.chmod(p, 0o700)
            func(p)
        except OSError:
            pass

    try:
        device = os.lstat(path).st_dev
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        full = os.path.join(path, name)
        try:
            info = os.lstat(full)
        except OSError:
            continue
        if info.st_dev != device:
            continue  # a mount: not ours to empty
        if stat.S_ISDIR(info.st_mode):
            if _holds_mount(full, device):
                _wipe(full)
            else:
                shutil.rmtree(full, onerror=fix)
        else:
            with contextlib.suppress(OSError):
                os.unlink(full)


def _holds_mount(directory: str, device: int) -> bool:
    """Whether a mount point lies below ``directory`` (bwrap creates such parents)."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as mounts:
            points = [line.split()[4] for line in mounts]
    except OSError:
        return False
    prefix = directory.rstrip("/") + "/"
    return any(point.startswith(prefix) for point in points)


def _descendants(root_pid: int) -> list[int]:
    """All live descendants of ``root_pid`` (used where we are not PID 1)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(name))
    out: list[int] = []
    stack = [root_pid]
    while stack:
        for c in children.get(stack.pop(), []):
            out.append(c)
            stack.append(c)
    return out


# Signals a job may send the worker (same uid): the worker ignores them, and each job's
# child process gets their default action back.
_JOB_SIGNALS = (
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGTSTP,
    signal.SIGTTIN,
    signal.SIGTTOU,
)


class Worker:
    def __init__(self, cfg: WorkerConfig) -> None:
        self.cfg = cfg
        self.pid1 = os.getpid() == 1
        self.scratch = cfg["scratch"]
        self.job_dir = os.path.join(self.scratch, JOB_DIR)

    # ---- setup ---------------------------------------------------------------

    def setup(self) -> None:
        # Move the protocol pipes off 0/1 so a job child never inherits them by accident.
        self.rfd = os.dup(0)
        self.wfd = os.dup(1)
        null = os.open("/dev/null", os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)
        # Jobs may signal us (same uid): ignore the catchable ones; as PID 1 of the
        # namespace SIGKILL/SIGSTOP from inside are dropped by the kernel anyway.
        for sig in (signal.SIGINT, *_JOB_SIGNALS, signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_IGN)
        prctl(PR_SET_NAME, b"sbx-worker")
        if not self.pid1:
            # Orphans of a job re-parent to us, so the sweep can find and kill them.
            prctl(PR_SET_CHILD_SUBREAPER, 1)
        os.makedirs(self.scratch, exist_ok=True)
        uid = self.cfg.get("uid")
        install_license(self.cfg, uid)
        if os.getuid() == 0 and uid is not None:
            os.chmod(self.scratch, 0o700)  # before chown: afterwards we no longer own it
            os.chown(self.scratch, uid, uid)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        # Die with our parent. Set after the uid change, which clears it. (As root, bwrap
        # may lack permission to deliver it; then the host kills us by pid, and EOF on the
        # job pipe ends us if the host dies.)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        # Not dumpable: jobs (same uid) cannot ptrace us or read /proc/1/{mem,fd,environ}.
        prctl(PR_SET_DUMPABLE, 0)
        for name in self.cfg["preimport"]:
            with contextlib.suppress(ImportError):
                __import__(name)
        self.codec: dict[str, Any] = {}
        if self.cfg.get("codec"):
            exec(compile(self.cfg["codec"], "value_codec", "exec"), self.codec)
        self.remote: dict[str, Any] = {}
        if self.cfg.get("remote"):
            exec(compile(self.cfg["remote"], "remote_calls", "exec"), self.remote)
        _wipe(self.scratch)
        # Objects that exist now are never collected: a job's GC pass then does not touch
        # (and copy-on-write) the worker's pages.
        gc.freeze()

    # ---- main loop -------------------------------------------------------------

    def serve(self) -> None:
        hello: Hello = {
            "ready": True,
            "uid": os.getuid(),
            "pid": os.getpid(),
            "python": sys.version.split()[0],
        }
        write_frame(self.wfd, hello)
        while True:
            result: Reply
            try:
                frame = read_frame(self.rfd)
                if frame is None:  # EOF: the host is gone
                    return
                job = parse_job(frame)
            except FrameError as exc:
                result = {"error": f"bad job frame: {exc}"}
            else:
                if job is None:  # the exit frame
                    return
                try:
                    result = self.run_job(job)
                except Exception as exc:  # report, do not die: the host decides to recycle
                    self._kill_all()
                    result = {"error": f"worker error: {type(exc).__name__}: {exc}"}
            write_frame(self.wfd, result)
            # The next job's child is forked from this frame: it must not find this job's
            # reply (a reference job's expected values) among the worker's locals.
            del result

    def run_job(self, job: Job) -> JobResult:
        # First, so that the host's stream stays in step whatever fails below.
        sealed_r = _take_sealed(self.rfd, job["sealed_bytes"]) if "sealed_bytes" in job else -1
        try:
            return self._run_job(job, sealed_r)
        finally:
            if sealed_r >= 0:
                os.close(sealed_r)

    def _run_job(self, job: Job, sealed_r: int) -> JobResult:
        os.mkdir(self.job_dir, 0o700)
        for name, content in job["files"].items():
            with open(os.path.join(self.job_dir, name), "w", encoding="utf-8") as f:
                f.write(content)
        # stdin comes from a memfd: no writer thread, no pipe-buffer deadlock.
        stdin_fd = os.memfd_create("stdin", 0)
        os.write(stdin_fd, job["stdin"].encode())
        os.lseek(stdin_fd, 0, os.SEEK_SET)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        rep_r, rep_w = os.pipe() if "nonce" in job or sealed_r >= 0 else (-1, -1)
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:  # child: never returns
            self._child(job, stdin_fd, out_w, err_w, rep_w, sealed_r)
        for fd in (stdin_fd, out_w, err_w, rep_w):
            if fd >= 0:
                os.close(fd)
        try:
            return self._supervise(pid, t0, job["limits"], out_r, err_r, rep_r)
        finally:
            for fd in (out_r, err_r, rep_r):
                if fd >= 0:
                    os.close(fd)
            for path in (self.scratch, *self.cfg.get("wipe", [])):
                _wipe(path)

    def _supervise(
        self, pid: int, t0: float, limits: JobLimits, out_r: int, err_r: int, rep_r: int
    ) -> JobResult:
        cap = limits["max_output_bytes"]
        bufs: dict[int, bytearray] = {out_r: bytearray(), err_r: bytearray()}
        report = bytearray()
        total = 0
        timed_out = output_limit = False
        pidfd = os.pidfd_open(pid)
        poller = select.poll()
        for fd in (out_r, err_r, pidfd, rep_r):
            if fd >= 0:
                poller.register(fd, select.POLLIN)
        deadline = t0 + limits["wall_s"]
        # A CPU budget below the wall clock is the verdict; the wall clock is a backstop.
        cpu_clock = limits["cpu_s"] < limits["wall_s"]
        cpu_used, cpu_check = 0.0, t0 + CPU_POLL_S
        exited = False
        while not exited:
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                timed_out = True
                break
            if cpu_clock:
                if now >= cpu_check:
                    cpu_used, cpu_check = _job_cpu_s(self.pid1), now + CPU_POLL_S
                    if cpu_used > limits["cpu_s"]:
                        break
                remaining = min(remaining, cpu_check - now)
            for fd, _ev in poller.poll(remaining * 1000):
                if fd == pidfd:
                    exited = True
                    continue
                data = os.read(fd, 65536)
                if not data:
                    poller.unregister(fd)
                    continue
                if fd == rep_r:
                    report += data[: REPORT_CAP + 1 - len(report)]
                    continue
                bufs[fd] += data
                total += len(data)
            if total > cap:
                output_limit = True
                break
        os.close(pidfd)
        duration = time.monotonic() - t0
        if not exited:
            # Timeout or output cap: kill the job before collecting its status.
            self._kill_all(reap=False)
        _, status, ru = os.wait4(pid, 0)
        self._kill_all()
        # Everything that could write is dead now: the pipes reach EOF.
        for fd in (out_r, err_r):
            while total <= cap:
                data = os.read(fd, 65536)
                if not data:
                    break
                bufs[fd] += data
                total += len(data)
        if total > cap:
            output_limit = True
        while rep_r >= 0 and len(report) <= REPORT_CAP:
            data = os.read(rep_r, 65536)
            if not data:
                break
            report += data
        code = os.waitstatus_to_exitcode(status)
        result: JobResult = {
            "exit_code": code if code >= 0 else None,
            "signal": -code if code < 0 else None,
            "stdout": bytes(bufs[out_r][:cap]).decode("utf-8", "replace"),
            "stderr": bytes(bufs[err_r][:cap]).decode("utf-8", "replace"),
            "timed_out": timed_out,
            "output_limit": output_limit,
            "duration_s": duration,
            "cpu_s": max(cpu_used, ru.ru_utime + ru.ru_stime),
            "maxrss_kb": ru.ru_maxrss,
        }
        if rep_r >= 0:
            # Over the cap the report is cut, so it no longer parses: the test fails.
            result["report"] = bytes(report[: REPORT_CAP + 1]).decode("utf-8", "replace")
        return result

    def _kill_all(self, reap: bool = True) -> None:
        """Kill every process of the job, daemons and setsid'd orphans included.

        ``reap=False`` leaves the job's main process for the caller's ``wait4``.
        """
        if self.pid1:
            # As PID 1 of the namespace, kill(-1) reaches every other process in it.
            with contextlib.suppress(ProcessLookupError):
                os.kill(-1, signal.SIGKILL)
            if not reap:
                return
            while True:
                try:
                    os.waitpid(-1, 0)
                except ChildProcessError:
                    return
        # Without a PID namespace: walk our descendants (orphans re-parent to us as
        # subreaper) until none are left.
        me = os.getpid()
        while True:
            procs = _descendants(me)
            if not procs:
                break
            for p in procs:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)
            if not reap:
                return
            while True:
                try:
                    got, _ = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if got == 0:
                    time.sleep(0.001)
                    break

    # ---- the job child -----------------------------------------------------------

    def _child(
        self, job: Job, stdin_fd: int, out_w: int, err_w: int, rep_w: int, sealed_r: int
    ) -> None:
        code = 125
        try:
            os.setsid()  # own session/process group, detached from the worker's
            os.dup2(stdin_fd, 0)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            # Out of the way of REPORT_FD first: the pipe may have been given that number.
            sealed = fcntl.fcntl(sealed_r, fcntl.F_DUPFD_CLOEXEC, 64) if sealed_r >= 0 else -1
            if rep_w >= 0:
                os.dup2(rep_w, REPORT_FD, inheritable=False)
            if sealed >= 0:
                os.dup2(sealed, SEALED_FD, inheritable=False)
            keep = SEALED_FD if sealed >= 0 else REPORT_FD if rep_w >= 0 else REPORT_FD - 1
            os.closerange(keep + 1, 1 << 16)
            os.chdir(self.job_dir)
            if not self.pid1:
                prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for sig in _JOB_SIGNALS:
                signal.signal(sig, signal.SIG_DFL)
            test: SplitHarness | ProgramServer | None = None
            if sealed >= 0 and job["kind"] == "python":
                # Before any limit: the test process applies them to itself.
                test = OpaqueTest(job, self.codec, self.remote).start()
            set_limits(job["limits"])
            env = dict(job["env"]) if job["kind"] == "exec" else {}
            env.setdefault("HOME", self.job_dir)
            license_env(self.cfg, env)
            if job["kind"] == "exec":
                signal.signal(signal.SIGPIPE, signal.SIG_DFL)
                signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
                argv = job["argv"]
                full_env = {**os.environ, **env}
                os.execve(argv[0], argv, full_env)
            os.environ.update(env)
            if "nonce" in job:
                test = SplitHarness(job, self.codec)
            code = run_python(os.path.join(self.job_dir, job["main"]), test)
        except BaseException as exc:  # pragma: no cover - reported through stderr
            with contextlib.suppress(OSError):
                os.write(2, f"sandbox: job setup failed: {exc!r}\n".encode())
        _exit(code)  # bound at start-up: the program may have replaced os._exit


def _job_cpu_s(pid1: bool) -> float:
    """User + system CPU of the job's processes so far, exited children and zombies
    included (every job process descends from the worker)."""
    total = 0
    for pid in _descendants(os.getpid()) if not pid1 else _namespace_pids():
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
            total += sum(map(int, stat[stat.rindex(b")") + 2 :].split()[11:15]))
    return total / CLOCK_TICKS


def _namespace_pids() -> list[int]:
    """Every process of our PID namespace but us (PID 1): the job's."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and name != "1"]


def _take_sealed(source: int, size: int) -> int:
    """The read end of a new pipe holding the ``size`` bytes that follow a job frame on
    ``source``. The bytes move inside the kernel (``splice``), never through the worker's
    memory, where every later job's program would inherit them."""
    r, w = os.pipe()
    try:
        with contextlib.suppress(OSError):  # up to fs.pipe-max-size (1 MiB by default)
            fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, max(size, 4096))
        capacity = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
        left = size
        while left and size <= capacity:
            moved = _move(source, w, left)
            if not moved:
                raise EOFError("the host closed the job pipe")
            left -= moved
        if left:
            _discard(source, left)
            raise ValueError(f"an opaque test of {size} bytes exceeds the {capacity}-byte pipe")
    except BaseException:
        os.close(r)
        raise
    finally:
        os.close(w)
    return r


def _move(source: int, target: int, size: int) -> int:
    """Move up to ``size`` bytes between descriptors, in the kernel where both allow it
    (``splice`` needs a pipe at one end); otherwise through a buffer wiped afterwards."""
    try:
        return os.splice(source, target, size)
    except OSError as exc:
        if exc.errno != errno.EINVAL:
            raise
    buf = bytearray(min(size, 1 << 16))
    got = os.readv(source, [buf])
    view = memoryview(buf)[:got]
    while view:
        view = view[os.write(target, view) :]
    buf[:] = bytes(len(buf))
    return got


def _discard(source: int, size: int) -> None:
    buf = bytearray(min(size, 1 << 16))
    while size:
        got = os.readv(source, [memoryview(buf)[: min(size, len(buf))]])
        if not got:
            return
        size -= got
    buf[:] = bytes(len(buf))
