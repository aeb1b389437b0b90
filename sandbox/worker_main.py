"""The warm worker: runs inside the sandbox and executes one job at a time.

This file is self-contained (stdlib only, no package imports) because it is started
inside bubblewrap with ``python -I -c <this source>``: the repository is not visible
there. The host imports it too, so both sides share one definition of every frame (the
TypedDicts below) and one codec (``write_frame``/``read_frame``/``parse_*``).

Protocol: 4-byte big-endian length + UTF-8 JSON, in both directions. The host passes a
``WorkerConfig`` on the command line (argv[1]); the worker answers a ``Hello`` and then
answers each ``Job`` frame with a ``Reply`` until EOF or an ``ExitFrame``. A frame that
does not match its type is answered with a ``JobError`` naming the problem.

Per job the worker forks a child that starts a new session, applies rlimits, chdirs into a
fresh job directory, and either runs Python source in the forked interpreter (fast: no
exec, no interpreter start-up) or execs a binary (q). The worker enforces the wall-clock
deadline and the output cap, then kills every process the job left behind.
"""

# No ``from __future__ import annotations``: the TypedDicts' NotRequired markers must be
# evaluated for ``__required_keys__`` to be right.
import builtins
import contextlib
import ctypes
import errno
import fcntl
import gc
import json
import math
import os
import resource
import select
import shutil
import signal
import stat
import struct
import sys
import time
import types
from collections.abc import Callable
from typing import (
    Any,
    Literal,
    NotRequired,
    TypedDict,
    cast,
    final,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

_HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024
PR_SET_NAME = 15
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
JOB_DIR = "job"
# The job's report channel: the harness writes the test's values (or its completion proof)
# here, never to stdout, so nothing the program prints can pass for them.
REPORT_FD = 3
REPORT_CAP = 8 * 1024 * 1024
# How often a job's CPU is read while its CPU budget, not the wall clock, is the limit.
CPU_POLL_S = 0.02
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# An opaque test's sealed part (its code and nonce) reaches the job on this descriptor, and
# only the test process keeps it open (see _OpaqueTest).
SEALED_FD = 4
# Names of the harness's comparisons in an opaque test (sandbox/test_split.py rewrites its
# asserts to call them).
HOLDS = "__sandbox_holds__"
TRUTHY = "__sandbox_truthy__"
# The function an opaque test's code is wrapped in; the harness calls it with HOLDS and
# TRUTHY as its arguments.
TEST_FUNCTION = "__sandbox_test__"


# --------------------------------------------------------------------------- frames


@final
class WorkerConfig(TypedDict):
    """argv[1] of the worker: where it works and what it prepares."""

    scratch: str  # the job's writable directory (emptied after every job)
    preimport: list[str]  # modules imported once, before jobs fork
    wipe: NotRequired[list[str]]  # more directories to empty after every job
    qlic_src: NotRequired[str]  # q licence files to copy ...
    qlic: NotRequired[str]  # ... into this directory, owned by the job uid
    uid: NotRequired[int]  # drop to this uid and the same gid (the host runs as root)
    codec: NotRequired[str]  # source of sandbox/value_codec.py, run before any job
    remote: NotRequired[str]  # source of sandbox/remote_calls.py, run before any job


@final
class Hello(TypedDict):
    """The worker's first frame: it is set up and waits for jobs."""

    ready: bool
    uid: int
    pid: int
    python: str


@final
class JobLimits(TypedDict):
    wall_s: float
    cpu_s: float
    memory_mb: int
    max_processes: int
    max_output_bytes: int
    max_file_bytes: int
    max_open_files: int


@final
class PythonJob(TypedDict):
    """Run ``files[main]`` in the forked interpreter.

    With ``nonce`` (a split test), after the program's top level has returned: evaluate
    each of ``probes`` (after ``setup``, which only a run without a program has: the
    program's run gets call chains of its own names with literal arguments and nothing
    else) and report their values on ``REPORT_FD`` with the nonce.

    With ``sealed`` (an opaque test; see ``SealedTest``): the test runs in a process of its
    own that never runs program code (``_OpaqueTest``). ``sealed`` exists on the host only:
    ``write_job`` sends ``sealed_bytes`` in the frame and the sealed text after it, and the
    worker moves that text into a pipe without reading it, so neither the worker's memory
    nor the program's ever holds the test's code or nonce."""

    kind: Literal["python"]
    main: str
    files: dict[str, str]
    stdin: str
    limits: JobLimits
    nonce: NotRequired[str]
    probes: NotRequired[list[str]]
    setup: NotRequired[str]
    sealed: NotRequired[str]
    sealed_bytes: NotRequired[int]
    # An opaque test's names that the program's process sends once its top level returned
    # (None: all of them, for a test that reads ``globals()``).
    names: NotRequired[list[str] | None]


@final
class SealedTest(TypedDict):
    """What only an opaque test's own process reads: its code (rewritten by
    ``test_split.rewrite_opaque``) and the nonce of its completion record."""

    code: str
    nonce: str
    # Whether the test asks about NaN: otherwise a NaN from the program ends it unpassed.
    nan: bool


@final
class ExecJob(TypedDict):
    """Exec ``argv`` (q) with ``env`` added to the worker's environment."""

    kind: Literal["exec"]
    argv: list[str]
    files: dict[str, str]
    stdin: str
    env: dict[str, str]
    limits: JobLimits


@final
class ExitFrame(TypedDict):
    op: Literal["exit"]


@final
class JobResult(TypedDict):
    """What a job did; ``signal`` is set instead of ``exit_code`` when it was killed."""

    exit_code: int | None
    signal: int | None
    stdout: str
    stderr: str
    timed_out: bool
    output_limit: bool
    duration_s: float
    cpu_s: float
    maxrss_kb: int
    report: NotRequired[str]  # what arrived on REPORT_FD (jobs with a nonce)


@final
class JobError(TypedDict):
    """The job could not be run (bad frame, worker failure); nothing about the program."""

    error: str


Job = PythonJob | ExecJob
Reply = JobResult | JobError
Frame = WorkerConfig | Hello | Job | ExitFrame | Reply
_JOB_KINDS: dict[str, Any] = {"python": PythonJob, "exec": ExecJob}


class FrameError(ValueError):
    """A frame that is not JSON or does not match its type."""


Check = Callable[[object, str], str | None]  # (value, where) -> the problem, or None
_CHECKS: dict[Any, Check] = {}


def _show(value: object) -> str:
    """A value for an error message, cut short (a frame may carry megabytes)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "…"


def _check(hint: Any) -> Check:
    """A function telling why a value does not match ``hint`` (built once per type)."""
    check = _CHECKS.get(hint)
    if check is None:
        check = _CHECKS[hint] = _build_check(hint)
    return check


def _build_check(hint: Any) -> Check:
    origin, args = get_origin(hint), get_args(hint)
    if is_typeddict(hint):
        return _record_check(hint)
    if origin is types.UnionType:
        options = [_check(arg) for arg in args]
        name = " or ".join(getattr(arg, "__name__", str(arg)) for arg in args)
        return lambda v, where: (
            None
            if any(c(v, where) is None for c in options)
            else f"{where}: expected {name}, got {type(v).__name__}"
        )
    if origin is Literal:
        return lambda v, where: (
            None if v in args else f"{where}: expected one of {list(args)}, got {_show(v)}"
        )
    if origin is list:
        item = _check(args[0])

        def check_list(v: object, where: str) -> str | None:
            if not isinstance(v, list):
                return f"{where}: expected a list, got {type(v).__name__}"
            return next(filter(None, (item(x, f"{where}[{i}]") for i, x in enumerate(v))), None)

        return check_list
    if origin is dict:
        value = _check(args[1])

        def check_dict(v: object, where: str) -> str | None:
            if not isinstance(v, dict) or not all(isinstance(k, str) for k in v):
                return f"{where}: expected an object, got {type(v).__name__}"
            return next(filter(None, (value(x, f"{where}.{k}") for k, x in v.items())), None)

        return check_dict
    # JSON has no int/float distinction for whole numbers; bool is never a number.
    accept = (int, float) if hint is float else hint
    return lambda v, where: (
        None
        if isinstance(v, accept) and not (isinstance(v, bool) and hint is not bool)
        else f"{where}: expected {hint.__name__}, got {type(v).__name__}"
    )


def _record_check(shape: Any) -> Check:
    fields = {key: _check(hint) for key, hint in get_type_hints(shape).items()}
    required = shape.__required_keys__

    def check_record(v: object, where: str) -> str | None:
        if not isinstance(v, dict):
            return f"{where}: expected an object, got {type(v).__name__}"
        missing = sorted(required - v.keys())
        if missing:
            return f"{where}: missing {', '.join(missing)}"
        unknown = sorted(map(_show, v.keys() - fields.keys()))
        if unknown:
            return f"{where}: unknown {', '.join(unknown)}"
        return next(filter(None, (fields[k](x, f"{where}.{k}") for k, x in v.items())), None)

    return check_record


def _expect(value: object, shape: Any, where: str) -> Any:
    problem = _check(shape)(value, where)
    if problem:
        raise FrameError(problem)
    return value


def parse_config(value: object) -> WorkerConfig:
    return cast(WorkerConfig, _expect(value, WorkerConfig, "config"))


def parse_hello(value: object) -> Hello:
    return cast(Hello, _expect(value, Hello, "hello"))


def parse_job(value: object) -> Job | None:
    """The job in a frame from the host; None for the exit frame."""
    if isinstance(value, dict) and "op" in value:
        _expect(value, ExitFrame, "frame")
        return None
    if isinstance(value, dict) and "sealed" in value:
        raise FrameError("job: sealed travels after the frame, never in it")
    kind = value.get("kind") if isinstance(value, dict) else None
    shape = _JOB_KINDS.get(kind) if isinstance(kind, str) else None
    if shape is None:
        raise FrameError(f"job: kind must be one of {sorted(_JOB_KINDS)}, got {_show(kind)}")
    return cast(Job, _expect(value, shape, "job"))


def parse_reply(value: object) -> Reply:
    if isinstance(value, dict) and "error" in value:
        return cast(JobError, _expect(value, JobError, "reply"))
    return cast(JobResult, _expect(value, JobResult, "reply"))


# --------------------------------------------------------------------------- framing


def write_frame(fd: int, frame: Frame) -> None:
    data = json.dumps(frame, separators=(",", ":")).encode()
    _write_all(fd, _HEADER.pack(len(data)) + data)


def _write_all(fd: int, data: bytes) -> None:
    buf = memoryview(data)
    while buf:
        buf = buf[os.write(fd, buf) :]


def write_job(fd: int, job: Job) -> None:
    """A job frame; an opaque test's sealed text follows it, outside the frame."""
    if job["kind"] != "python" or "sealed" not in job:
        write_frame(fd, job)
        return
    sealed = job["sealed"].encode()
    frame: PythonJob = {**job, "sealed_bytes": len(sealed)}
    del frame["sealed"]
    write_frame(fd, frame)
    _write_all(fd, sealed)


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks: list[bytes] = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> object:
    """Read one frame's JSON value; None on EOF. Raises FrameError for a frame that is
    too large, not JSON or null, after consuming it (the stream stays in step)."""
    head = _read_exact(fd, _HEADER.size)
    if head is None:
        return None
    (size,) = _HEADER.unpack(head)
    if size > MAX_FRAME:
        while size:
            chunk = os.read(fd, min(size, 1 << 20))
            if not chunk:
                return None
            size -= len(chunk)
        raise FrameError(f"frame too large: more than {MAX_FRAME} bytes")
    body = _read_exact(fd, size)
    if body is None:
        return None
    try:
        value: object = json.loads(body)
    except ValueError as exc:
        raise FrameError(f"frame is not JSON: {exc}") from None
    if value is None:  # None means EOF to the caller
        raise FrameError("frame is null")
    return value


# --------------------------------------------------------------------------- helpers


def _prctl(option: int, arg: int | bytes) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(option, arg, 0, 0, 0)


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
        _prctl(PR_SET_NAME, b"sbx-worker")
        if not self.pid1:
            # Orphans of a job re-parent to us, so the sweep can find and kill them.
            _prctl(PR_SET_CHILD_SUBREAPER, 1)
        os.makedirs(self.scratch, exist_ok=True)
        uid = self.cfg.get("uid")
        self._install_license(uid)
        if os.getuid() == 0 and uid is not None:
            os.chmod(self.scratch, 0o700)  # before chown: afterwards we no longer own it
            os.chown(self.scratch, uid, uid)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        # Die with our parent. Set after the uid change, which clears it. (As root, bwrap
        # may lack permission to deliver it; then the host kills us by pid, and EOF on the
        # job pipe ends us if the host dies.)
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        # Not dumpable: jobs (same uid) cannot ptrace us or read /proc/1/{mem,fd,environ}.
        _prctl(PR_SET_DUMPABLE, 0)
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

    def _install_license(self, uid: int | None) -> None:
        """Copy the q licence (readable only by the host's uid) to a tmpfs the job uid owns."""
        src, dst = self.cfg.get("qlic_src"), self.cfg.get("qlic")
        if not src or not dst:
            return
        os.makedirs(dst, exist_ok=True)
        for name in os.listdir(src):
            with open(os.path.join(src, name), "rb") as f:
                data = f.read()
            target = os.path.join(dst, name)
            with open(target, "wb") as f:
                f.write(data)
            os.chmod(target, 0o400)
            if os.getuid() == 0 and uid is not None:
                os.chown(target, uid, uid)
        os.chmod(dst, 0o500)
        if os.getuid() == 0 and uid is not None:
            os.chown(dst, uid, uid)

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
                _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for sig in _JOB_SIGNALS:
                signal.signal(sig, signal.SIG_DFL)
            test: _TestHarness | _ProgramServer | None = None
            if sealed >= 0 and job["kind"] == "python":
                # Before any limit: the test process applies them to itself.
                test = _OpaqueTest(job, self.codec, self.remote).start()
            _set_limits(job["limits"])
            env = dict(job["env"]) if job["kind"] == "exec" else {}
            env.setdefault("HOME", self.job_dir)
            if self.cfg.get("qlic"):
                env.setdefault("QLIC", self.cfg["qlic"])
            if job["kind"] == "exec":
                signal.signal(signal.SIGPIPE, signal.SIG_DFL)
                signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
                argv = job["argv"]
                full_env = {**os.environ, **env}
                os.execve(argv[0], argv, full_env)
            os.environ.update(env)
            if "nonce" in job:
                test = _TestHarness(job, self.codec)
            code = _run_python(os.path.join(self.job_dir, job["main"]), test)
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


def _set_limits(limits: JobLimits) -> None:
    cpu = max(1, math.ceil(limits["cpu_s"]))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    mem = limits["memory_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["max_open_files"],) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["max_file_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["max_processes"],) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


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


def _job_streams() -> None:
    """Fresh streams on the job's fds 0/1/2, set up like the interpreter's own."""
    import io

    sys.stdin = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8"
    )
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding="utf-8"
    )
    sys.stderr = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
        encoding="utf-8",
        errors="backslashreplace",
        line_buffering=True,
    )
    for name in ("stdin", "stdout", "stderr"):
        setattr(sys, f"__{name}__", getattr(sys, name))


def _flush_stdout() -> None:
    sys.stdout.flush()


def _run_python(path: str, test: "_TestHarness | _ProgramServer | None" = None) -> int:
    """Run a script in this (forked) interpreter with ``python script.py`` semantics; then,
    if its top level returned normally, the test harness (which writes the report) or the
    opaque test's server."""
    import atexit

    atexit._clear()
    _job_streams()
    sys.argv = [path]
    rnd = sys.modules.get("random")
    if rnd is not None:  # forked jobs would otherwise all share the worker's RNG state
        rnd.seed()
    sys.path.insert(0, os.path.dirname(path))
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = __builtins__  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    code = 0
    if test is not None:
        test.guard()
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        exec(compile(source, path, "exec"), main.__dict__)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:
        # Hide this frame so the traceback looks like the one `python main.py` prints.
        tb = exc.__traceback__.tb_next if exc.__traceback__ else None
        _print_exception(type(exc), exc.with_traceback(tb), tb)
        code = 1
    else:
        if test is not None:
            code = test.run(main.__dict__)
    try:
        # Like interpreter exit: join non-daemon threads (only if the program used any).
        threading = sys.modules.get("threading")
        if threading is not None:
            threading._shutdown()
        atexit._run_exitfuncs()
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            code = code or 120
    return code


# Bound at worker start-up, before any program runs: a program that replaces
# sys.excepthook (say, with one that exits 0) or json.dumps does not reach these.
_print_exception = sys.__excepthook__
_dumps = json.dumps
_write = os.write
_exit = os._exit
_eval = eval
_exec = exec
_compile = compile
_pristine_builtins = dict(builtins.__dict__)


class _TestHarness:
    """The trusted part of a split test, run in the job's interpreter after the program's
    top level returned: it evaluates the program's call chains (``f(3)``,
    ``Solution().run([1, 2])[0]``: calls of the program's names with literal arguments;
    ``test_split`` sends nothing else) and reports the values. It can only report; the
    host judges what it reports. In a run without a program (the expected sides), the
    same, after the test's set-up."""

    def __init__(self, job: PythonJob, codec: dict[str, Any]) -> None:
        self.job = job
        self.encode: Callable[[object], object] = codec["encode"]
        self.unsendable: type[Exception] = codec["Unsendable"]

    @staticmethod
    def _namespace(main: dict[str, Any]) -> dict[str, Any]:
        names = dict(main)
        names["__builtins__"] = dict(_pristine_builtins)
        return names

    @staticmethod
    def guard() -> None:
        """Before the program runs: no tracing or profiling hooks. A trace function can
        jump over an assert's line (``frame.f_lineno``) or rewrite the harness's locals."""
        sys.settrace(None)
        sys.setprofile(None)
        sys.settrace = sys.setprofile = _no_tracing

    def run(self, main: dict[str, Any]) -> int:
        names = self._namespace(main)
        try:
            _exec(_compile(self.job.get("setup", ""), "<test setup>", "exec"), names)
        except BaseException as exc:
            _send_report({"nonce": self.job["nonce"], "setup_error": _describe(exc)})
            return 0
        values: list[list[object]] = []
        for probe in self.job.get("probes", []):
            scope = self._namespace(names)
            try:
                value = _eval(_compile(probe, "<test>", "eval"), scope)
                values.append(["ok", self.encode(value)])
            except BaseException as exc:
                kind = "unsendable" if isinstance(exc, self.unsendable) else "raised"
                values.append([kind, _describe(exc)])
        _send_report({"nonce": self.job["nonce"], "values": values})
        return 0


def _send_report(report: dict[str, object]) -> None:
    data = memoryview(_dumps(report, separators=(",", ":")).encode())
    while data:
        data = data[_write(REPORT_FD, data) :]


class _OpaqueTest:
    """An opaque test: its code runs in a process of its own, forked before the program
    runs, that never runs program code.

    The test process alone holds the sealed part (the test's code and its nonce, on
    ``SEALED_FD``) and the report descriptor; it is not dumpable, so the program (same
    uid) can neither ptrace it nor read its memory or descriptors through ``/proc``. The
    program's process closes both, runs the program's top level and then serves the test's
    requests (``sandbox/remote_calls.py``): names read, functions called, values as plain
    data. The test process writes the completion record after the test code returned; a
    program that exits, kills the test process or breaks the protocol leaves no record."""

    def __init__(self, job: PythonJob, codec: dict[str, Any], remote: dict[str, Any]) -> None:
        self.job, self.codec, self.remote = job, codec, remote

    def start(self) -> "_ProgramServer":
        """Fork the test process; in the program's process, its end of the link."""
        to_program_r, to_program_w = os.pipe()
        to_test_r, to_test_w = os.pipe()
        if os.fork() == 0:
            code = 0
            try:
                os.close(to_program_r)
                os.close(to_test_w)
                self._test_process(to_test_r, to_program_w)
            except BaseException as exc:
                code = 125
                with contextlib.suppress(BaseException):
                    os.write(2, f"sandbox: the test process failed: {exc!r}\n".encode())
            os._exit(code)
        os.close(to_program_w)
        os.close(to_test_r)
        os.close(SEALED_FD)
        os.close(REPORT_FD)
        # A namespace (filled in once the top level returned) makes this the program's end:
        # its objects are the program's own, every attribute of them readable by the test.
        link = self.remote["Link"](to_program_r, to_test_w, self.codec, _flush_stdout, {})
        return _ProgramServer(link, self.job.get("names"))

    def _test_process(self, rfd: int, wfd: int) -> None:
        _prctl(PR_SET_DUMPABLE, 0)  # inherited from the worker already; said again here
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)  # the job's stdin is the program's
        os.close(null)
        _set_limits(self.job["limits"])
        _job_streams()
        with os.fdopen(SEALED_FD, "rb") as f:
            sealed = cast(SealedTest, _expect(json.loads(f.read()), SealedTest, "sealed"))
        link = self.remote["Link"](rfd, wfd, self.codec, _flush_stdout)
        link.refuse_nan = not sealed["nan"]
        broken = self.remote["LinkBroken"]
        try:
            names = {**link.ready(), "__name__": "__main__", "__builtins__": builtins}
        except (broken, self.remote["ProgramExit"]):
            return  # the program's top level did not return, or sent a NaN
        verdict = 1
        try:
            _exec(_compile(sealed["code"], "<test>", "exec"), names)
            checks = _PlainChecks(self.codec)
            names[TEST_FUNCTION](checks.holds, checks.truthy)
            if link.ended is not None:  # the test caught what ended it
                raise self.remote["ProgramExit"](link.ended)
            _send_report({"nonce": sealed["nonce"], "done": True})
            verdict = 0
        except self.remote["ProgramExit"] as exc:
            print(f"sandbox: the test could not finish: {exc}", file=sys.stderr)
        except BaseException as exc:
            tb = exc.__traceback__.tb_next if exc.__traceback__ else None
            _print_exception(type(exc), exc.with_traceback(tb), tb)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        with contextlib.suppress(broken):
            link.send(["end", verdict])


class _PlainChecks:
    """An opaque test's comparisons (``rewrite_opaque`` turns its asserts into calls of
    these): both raise Unsendable for a value that is not plain data, so the test fails;
    a False would turn into a pass under ``assert not``."""

    def __init__(self, codec: dict[str, Any]) -> None:
        self.encode: Callable[[object], object] = codec["encode"]
        self.decode: Callable[[object], object] = codec["decode"]
        self.relation: Callable[[str, object, object], bool] = codec["holds"]

    def _plain(self, value: object) -> object:
        return self.decode(self.encode(value))

    def holds(self, op: str, a: object, b: object) -> bool:
        if op in ("in", "not in") and type(b) is dict:
            # Membership in a dict is among its keys: ``"Solution" in globals()`` asks
            # about a name, whatever the values (program functions, as references) are.
            b = list(b)
        return self.relation(op, self._plain(a), self._plain(b))

    def truthy(self, value: object) -> bool:
        return bool(self._plain(value))


class _ProgramServer:
    """The program's side of an opaque test: after the top level, answer the test."""

    def __init__(self, link: Any, names: list[str] | None) -> None:
        self.link, self.names = link, names

    @staticmethod
    def guard() -> None:
        """Nothing to guard: no test code runs in this process."""

    def run(self, main: dict[str, Any]) -> int:
        """The exit code: the test process's verdict, or the program's own exit."""
        self.link.namespace = main
        try:
            return int(self.link.serve(self.names))
        except SystemExit as exc:  # the program exited inside a call
            return _exit_code(exc)
        except Exception:  # the test process is gone: no record, whatever the status
            return 0


def _no_tracing(*_args: object) -> None:
    raise RuntimeError("tracing and profiling hooks are not available while tests run")


def _describe(exc: BaseException) -> str:
    """``Type: message`` of an exception the program raised (its ``__str__`` may misbehave)."""
    try:
        return f"{type(exc).__name__}: {exc}"[:300]
    except BaseException:
        return type(exc).__name__[:100]


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if type(exc.code) is int:  # exactly: an int subclass's ``__and__`` is the program's
        return exc.code & 0xFF
    if isinstance(exc.code, int):
        return 1
    with contextlib.suppress(BaseException):
        print(exc.code, file=sys.stderr)
    return 1


def main() -> None:
    worker = Worker(parse_config(json.loads(sys.argv[1])))
    worker.setup()
    worker.serve()


if __name__ == "__main__":
    main()
