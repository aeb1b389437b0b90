"""The frames between the host and a warm worker, and how they travel.

Protocol: 4-byte big-endian length + UTF-8 JSON, in both directions. The host passes a
``WorkerConfig`` on the command line; the worker answers a ``Hello`` and then answers each
``Job`` frame with a ``Reply`` until EOF or an ``ExitFrame``. A frame that does not match
its type is answered with a ``JobError`` naming the problem.

Stdlib only: the worker runs this module from its source (``sandbox/worker_main.py``) and
the host imports it, so both sides share one definition of every frame (the TypedDicts
below) and one codec (``write_frame``/``read_frame``/``parse_*``).
"""

# No ``from __future__ import annotations``: the TypedDicts' NotRequired markers must be
# evaluated for ``__required_keys__`` to be right.
import json
import os
import struct
from typing import Any, Literal, NotRequired, TypedDict, cast, final

from .typed_check import FrameError as FrameError  # a frame that does not match its type
from .typed_check import expect, show

_HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024


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
    else) and report their values on ``job_process.REPORT_FD`` with the nonce.

    With ``sealed`` (an opaque test; see ``SealedTest``): the test runs in a process of its
    own that never runs program code (``python_harness.OpaqueTest``). ``sealed`` exists on
    the host only: ``write_job`` sends ``sealed_bytes`` in the frame and the sealed text
    after it, and the worker moves that text into a pipe without reading it, so neither the
    worker's memory nor the program's ever holds the test's code or nonce."""

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


def parse_config(value: object) -> WorkerConfig:
    return cast(WorkerConfig, expect(value, WorkerConfig, "config"))


def parse_hello(value: object) -> Hello:
    return cast(Hello, expect(value, Hello, "hello"))


def parse_job(value: object) -> Job | None:
    """The job in a frame from the host; None for the exit frame."""
    if isinstance(value, dict) and "op" in value:
        expect(value, ExitFrame, "frame")
        return None
    if isinstance(value, dict) and "sealed" in value:
        raise FrameError("job: sealed travels after the frame, never in it")
    kind = value.get("kind") if isinstance(value, dict) else None
    shape = _JOB_KINDS.get(kind) if isinstance(kind, str) else None
    if shape is None:
        raise FrameError(f"job: kind must be one of {sorted(_JOB_KINDS)}, got {show(kind)}")
    return cast(Job, expect(value, shape, "job"))


def parse_reply(value: object) -> Reply:
    if isinstance(value, dict) and "error" in value:
        return cast(JobError, expect(value, JobError, "reply"))
    return cast(JobResult, expect(value, JobResult, "reply"))


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
