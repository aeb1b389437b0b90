"""The Python test harness: how a forked worker runs a program and then its test.

Stdlib only: shipped to the worker as source (``sandbox/worker_main.py``); the supervisor
(``sandbox/supervisor.py``) calls :func:`run_python` in each Python job's process.

- :func:`run_python` runs the program with ``python main.py`` semantics in the forked
  interpreter (fresh ``__main__``, fresh stdio, ``sys.exit``/``atexit``/thread joining,
  RNG reseeded); then, if its top level returned, the test's part:
- :class:`SplitHarness` (a split test) evaluates the program's call chains and reports
  their values on ``REPORT_FD``; the host judges them.
- :class:`OpaqueTest` (any other test) forks the test's own process before the program
  runs; the program's process then serves its requests (:class:`ProgramServer`).
"""

import builtins
import contextlib
import json
import os
import signal
import sys
import types
from collections.abc import Callable
from typing import Any, cast

from .frames import PythonJob, SealedTest
from .job_process import (
    PR_SET_DUMPABLE,
    PR_SET_PDEATHSIG,
    REPORT_FD,
    SEALED_FD,
    prctl,
    set_limits,
)
from .typed_check import expect

# Names of the harness's comparisons in an opaque test (sandbox/test_split.py rewrites its
# asserts to call them).
HOLDS = "__sandbox_holds__"
TRUTHY = "__sandbox_truthy__"
# The function an opaque test's code is wrapped in; the harness calls it with HOLDS and
# TRUTHY as its arguments.
TEST_FUNCTION = "__sandbox_test__"


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


def run_python(path: str, test: "SplitHarness | ProgramServer | None" = None) -> int:
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
    main.__builtins__ = builtins  # type: ignore[attr-defined]
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
_eval = eval
_exec = exec
_compile = compile
_pristine_builtins = dict(builtins.__dict__)


class SplitHarness:
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


class OpaqueTest:
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

    def start(self) -> "ProgramServer":
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
        return ProgramServer(link, self.job.get("names"))

    def _test_process(self, rfd: int, wfd: int) -> None:
        prctl(PR_SET_DUMPABLE, 0)  # inherited from the worker already; said again here
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)  # the job's stdin is the program's
        os.close(null)
        set_limits(self.job["limits"])
        _job_streams()
        with os.fdopen(SEALED_FD, "rb") as f:
            sealed = cast(SealedTest, expect(json.loads(f.read()), SealedTest, "sealed"))
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


class ProgramServer:
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
