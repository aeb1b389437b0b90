"""The host <-> worker wire format, checked against a real worker under bubblewrap."""

from __future__ import annotations

import importlib
import json
import os
import select
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import worker_main
from sandbox.bwrap import SCRATCH, BwrapPlan, bwrap_argv
from sandbox.frames import (
    MAX_FRAME,
    ExecJob,
    ExitFrame,
    Frame,
    FrameError,
    JobLimits,
    PythonJob,
    WorkerConfig,
    parse_hello,
    parse_job,
    parse_reply,
    read_frame,
    write_frame,
    write_job,
)
from sandbox.interpreter import probe_python
from sandbox.pool import WORKER_PIECES, WORKER_SOURCE, WorkerSpec

from .conftest import needs_bwrap

LIMITS: JobLimits = {
    "wall_s": 2.0,
    "cpu_s": 2.0,
    "memory_mb": 256,
    "max_processes": 8,
    "max_output_bytes": 10_000,
    "max_file_bytes": 1_000_000,
    "max_open_files": 32,
}
RESULT_KEYS = {
    "exit_code",
    "signal",
    "stdout",
    "stderr",
    "timed_out",
    "output_limit",
    "duration_s",
    "cpu_s",
    "maxrss_kb",
}


class Wire:
    """A real worker started the way the pool starts it, spoken to frame by frame."""

    def __init__(self, config: WorkerConfig) -> None:
        info = probe_python(sys.executable)
        as_root = os.geteuid() == 0
        bwrap = shutil.which("bwrap")
        assert bwrap is not None
        plan = BwrapPlan(bwrap, ro_paths=info.mount_paths(), as_root=as_root)
        # A uid range of its own: the module's other sandboxes count their processes apart.
        spec = WorkerSpec(
            prefix=bwrap_argv(plan),
            python=info.executable,
            config=config,
            drop_uid=as_root,
            uid_base=60_900,
        )
        self.proc = subprocess.Popen(
            spec.command(0, None, None),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.w, self.r = self.proc.stdin.fileno(), self.proc.stdout.fileno()

    def recv(self) -> object:
        assert select.select([self.r], [], [], 10.0)[0], "the worker did not answer"
        return read_frame(self.r)

    def ask(self, frame: Frame) -> object:
        write_frame(self.w, frame)
        return self.recv()

    def ask_raw(self, body: bytes) -> object:
        os.write(self.w, len(body).to_bytes(4, "big") + body)
        return self.recv()

    def close(self) -> None:
        """EOF on its job pipe ends the worker (and with it the sandbox)."""
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


@pytest.fixture(scope="module")
def wire() -> Iterator[Wire]:
    w = Wire({"scratch": SCRATCH, "preimport": []})
    hello = parse_hello(w.recv())
    assert hello["ready"] is True and hello["pid"] == 1  # PID 1 of its own namespace
    try:
        yield w
    finally:
        w.close()


def _python_job(source: str, stdin: str = "") -> PythonJob:
    return {
        "kind": "python",
        "main": "main.py",
        "files": {"main.py": source},
        "stdin": stdin,
        "limits": LIMITS,
    }


@needs_bwrap
def test_python_job_reply_has_every_result_field(wire: Wire) -> None:
    reply = wire.ask(_python_job("import sys\nprint(input())\nsys.exit(3)\n", "hi\n"))
    assert isinstance(reply, dict) and set(reply) == RESULT_KEYS
    assert reply["exit_code"] == 3 and reply["signal"] is None
    assert reply["stdout"] == "hi\n" and reply["stderr"] == ""
    assert reply["timed_out"] is False and reply["output_limit"] is False
    assert isinstance(reply["duration_s"], float) and isinstance(reply["cpu_s"], float)
    assert isinstance(reply["maxrss_kb"], int) and reply["maxrss_kb"] > 0
    assert parse_reply(reply) == reply


@needs_bwrap
def test_exec_job_gets_its_env_and_a_killed_job_its_signal(wire: Wire) -> None:
    job: ExecJob = {
        "kind": "exec",
        "argv": ["/bin/sh", "-c", "echo $GREETING; kill -9 $$"],
        "files": {},
        "stdin": "",
        "env": {"GREETING": "hello"},
        "limits": LIMITS,
    }
    reply = parse_reply(wire.ask(job))
    assert "error" not in reply
    assert (reply["stdout"], reply["exit_code"], reply["signal"]) == ("hello\n", None, 9)


@needs_bwrap
@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"{not json", "frame is not JSON"),
        (b"null", "frame is null"),
        (b"[1, 2]", "job: kind must be one of ['exec', 'python'], got None"),
        (b'{"kind": "shell"}', "job: kind must be one of ['exec', 'python'], got 'shell'"),
        (b'{"kind": "python", "main": "main.py"}', "job: missing files, limits, stdin"),
        (json.dumps({**_python_job("print(1)"), "env": {}}).encode(), "job: unknown 'env'"),
        (
            json.dumps({**_python_job("print(1)"), "files": {"main.py": 1}}).encode(),
            "job.files.main.py: expected str, got int",
        ),
        (
            json.dumps({**_python_job("print(1)"), "limits": {**LIMITS, "wall_s": "1"}}).encode(),
            "job.limits.wall_s: expected float, got str",
        ),
        (b'{"op": "stop"}', "frame.op: expected one of ['exit'], got 'stop'"),
        (json.dumps({"kind": "x" * 100_000}).encode(), "job: kind must be one of"),
    ],
)
def test_malformed_job_frame_is_answered_with_an_error(
    wire: Wire, body: bytes, problem: str
) -> None:
    reply = wire.ask_raw(body)
    assert isinstance(reply, dict) and set(reply) == {"error"}
    assert reply["error"].startswith("bad job frame: " + problem), reply
    assert len(reply["error"]) < 200  # the frame's values are quoted, cut short
    # Nothing ran and nothing broke: the next job is served as usual.
    out = parse_reply(wire.ask(_python_job("print(2)")))
    assert "error" not in out and out["stdout"] == "2\n"


def test_an_opaque_tests_sealed_part_follows_its_frame_outside_it() -> None:
    """The worker moves what follows the frame into a pipe without reading it, so the
    test's code and nonce never sit in the memory its programs are forked from."""
    sealed = json.dumps({"code": "assert f(1) == 2", "nonce": "ab" * 16})
    r, w = os.pipe()
    try:
        write_job(w, {**_python_job("def f(x):\n    return 2\n"), "sealed": sealed})
        frame = read_frame(r)
        assert isinstance(frame, dict) and "sealed" not in frame
        assert frame["sealed_bytes"] == len(sealed.encode())
        assert os.read(r, 1 << 16) == sealed.encode()
        assert parse_job(frame) == {**_python_job("def f(x):\n    return 2\n"), **frame}
    finally:
        os.close(r)
        os.close(w)
    with pytest.raises(FrameError, match="sealed travels after the frame"):
        parse_job({**_python_job(""), "sealed": sealed})


@needs_bwrap
def test_oversized_frame_is_skipped_and_answered(wire: Wire) -> None:
    os.write(wire.w, (MAX_FRAME + 1).to_bytes(4, "big"))
    chunk = b" " * (1 << 20)
    left = MAX_FRAME + 1
    while left:
        left -= os.write(wire.w, chunk[: min(left, len(chunk))])
    reply = wire.recv()
    assert reply == {"error": f"bad job frame: frame too large: more than {MAX_FRAME} bytes"}
    out = parse_reply(wire.ask(_python_job("print(3)")))
    assert "error" not in out and out["stdout"] == "3\n"


@needs_bwrap
@pytest.mark.parametrize("how", ["exit frame", "EOF"])
def test_exit_frame_or_eof_ends_the_worker(how: str) -> None:
    w = Wire({"scratch": SCRATCH, "preimport": []})
    try:
        parse_hello(w.recv())
        if how == "EOF":
            assert w.proc.stdin is not None
            w.proc.stdin.close()
        else:
            bye: ExitFrame = {"op": "exit"}
            write_frame(w.w, bye)
        assert w.proc.wait(timeout=5) == 0
        assert w.recv() is None  # and it said nothing more
    finally:
        w.close()


@needs_bwrap
def test_bad_config_stops_the_worker_with_the_reason() -> None:
    bad = {"scratch": SCRATCH, "preimport": "json"}
    w = Wire(bad)  # type: ignore[arg-type]  # deliberately not a WorkerConfig
    try:
        assert w.recv() is None  # no hello: the worker exited
        assert w.proc.wait(timeout=10) != 0
        assert w.proc.stderr is not None
        assert b"config.preimport: expected a list, got str" in w.proc.stderr.read()
    finally:
        w.close()


def test_parse_checks_nested_types_and_accepts_whole_floats() -> None:
    job = _python_job("print(1)")
    assert parse_job(json.loads(json.dumps(job))) == job
    assert parse_job({**job, "limits": {**LIMITS, "wall_s": 2}}) is not None
    assert parse_job({"op": "exit"}) is None
    with pytest.raises(FrameError, match=r"job.limits.memory_mb: expected int, got bool"):
        parse_job({**job, "limits": {**LIMITS, "memory_mb": True}})
    with pytest.raises(FrameError, match=r"reply.signal: expected int or NoneType, got str"):
        parse_reply(
            {
                **dict.fromkeys(RESULT_KEYS, 0),
                "stdout": "",
                "stderr": "",
                "timed_out": False,
                "output_limit": False,
                "signal": "9",
            }
        )


def test_the_worker_is_sent_its_pieces_as_the_files_hold_them() -> None:
    """What travels to the worker is each piece's file, unchanged, in import order; the host
    imports the same files."""
    pieces = json.loads(WORKER_PIECES)
    assert list(pieces) == list(worker_main.PIECES)
    for name, source in pieces.items():
        module = importlib.import_module(f"sandbox.{name}")
        assert module.__file__ is not None
        assert source == Path(module.__file__).read_text(encoding="utf-8")
    assert Path(worker_main.__file__).read_text(encoding="utf-8") == WORKER_SOURCE


def test_the_pieces_need_nothing_but_each_other_and_the_stdlib(tmp_path: Path) -> None:
    """Installed as the worker installs them, in an isolated interpreter that cannot see the
    repository, the pieces import; the sandbox modules then loaded are the pieces alone."""
    boot = (
        "import json, sys\n"
        "names = {'__name__': 'boot'}\n"
        "exec(sys.argv[1], names)\n"
        "names['install'](json.loads(sys.argv[2]))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'sandbox')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", boot, WORKER_SOURCE, WORKER_PIECES],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == sorted(
        ["sandbox", *(f"sandbox.{name}" for name in worker_main.PIECES)]
    )


@needs_bwrap
def test_a_program_runs_as_python_main_py_does(wire: Wire) -> None:
    """The program's ``__builtins__`` is the builtins module, as a script's is, although the
    harness that runs it is an imported module (where it would be a dict)."""
    source = "import builtins\nprint(__builtins__ is builtins, __name__)\n"
    reply = parse_reply(wire.ask(_python_job(source)))
    assert "error" not in reply
    assert reply["stdout"] == "True __main__\n" and reply["exit_code"] == 0
