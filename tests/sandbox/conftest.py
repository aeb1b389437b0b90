"""Shared fixtures: one real bwrap-backed Sandbox per test module (warm workers)."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator, Sequence

import pytest

from sandbox import Language, Limits, Sandbox, SandboxConfig, TestCase, TestOutcome
from sandbox.python_runner import PythonRunner
from sandbox.q_runner import QRunner

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bwrap not installed")


class Runner:
    """Synchronous helpers around the async API (no pytest-asyncio in the venv)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    def run(
        self,
        program: str,
        tests: Sequence[TestCase],
        limits: Limits | None = None,
        language: Language = Language.PYTHON,
    ) -> list[TestOutcome]:
        return asyncio.run(self.sandbox.run_tests(language, program, tests, limits or Limits()))

    def one(
        self, program: str, test: TestCase | None = None, limits: Limits | None = None
    ) -> TestOutcome:
        return self.run(program, [test or TestCase()], limits)[0]

    def assert_healthy(self) -> None:
        """After a hostile program the sandbox must still run a normal one correctly."""
        out = self.run(
            "def add(a, b):\n    return a + b\n",
            [
                TestCase(code="assert add(2, 3) == 5"),
                TestCase(code="print(add(1, 1))", expected="2"),
            ],
        )
        assert [o.passed for o in out] == [True, True], out


@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    sb = Sandbox(SandboxConfig(workers=2))
    try:
        yield Runner(sb)
    finally:
        sb.close()


def host_processes() -> dict[int, tuple[str, str]]:
    """pid -> (comm, state) for every process on the host."""
    procs: dict[int, tuple[str, str]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        comm = raw[raw.index(b"(") + 1 : raw.rindex(b")")].decode(errors="replace")
        state = raw[raw.rindex(b")") + 2 :].split()[0].decode()
        procs[int(name)] = (comm, state)
    return procs


def q_runner(sandbox: Sandbox) -> QRunner:
    """The sandbox's q runner (internals: its jobs and its q, read by tests)."""
    runner = sandbox._runners[Language.Q]
    assert isinstance(runner, QRunner)
    return runner


def python_runner(sandbox: Sandbox) -> PythonRunner:
    """The sandbox's Python runner (internals: its reference pool, read by tests)."""
    runner = sandbox._runners[Language.PYTHON]
    assert isinstance(runner, PythonRunner)
    return runner
