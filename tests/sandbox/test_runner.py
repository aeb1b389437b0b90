"""What the Sandbox itself decides, on the real bwrap sandbox: outcomes in the order of the
tests whatever mix of jobs they became, expected sides in a pool of their own started only
when a test needs one, how long the oldest queued job has waited, warm-up and closing, and
the q job it builds.

Status, a missing or unusable bwrap and q without a binary are covered by
tests/sandbox/test_lifecycle.py."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator

import pytest

from sandbox import (
    Failure,
    Language,
    Limits,
    PoolStatus,
    Sandbox,
    SandboxConfig,
    SandboxUnavailable,
    TestCase,
)
from sandbox.q_script import SCRIPT_NAME

from .conftest import Runner, needs_bwrap, python_runner, q_runner

pytestmark = pytest.mark.timeout(120)

PROGRAM = "def f(x):\n    return sorted(x)\n"


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(SandboxConfig(workers=2)) as sb:
        yield sb


@needs_bwrap
def test_outcomes_follow_the_tests_order_across_jobs_with_and_without_expected_sides(
    sandbox: Sandbox,
) -> None:
    tests = [
        TestCase(code="assert f([3, 1]) == sorted([1, 3])"),  # expected side: a job of its own
        TestCase(code="print(f([2, 1]))", expected="[9]"),  # stdout compared on the host
        TestCase(code="assert f([2, 1]) == [2, 1]"),  # literal expected side
        TestCase(code="assert f([1]) == list(reversed([1, 2]))"),  # expected side, fails
        TestCase(code="for i in range(3):\n    assert f([i]) == [i]"),  # opaque
        TestCase(code="assert f([5, 4]) == sorted([4, 5])"),
    ]
    out = Runner(sandbox).run(PROGRAM, tests)
    assert [(o.passed, o.failure) for o in out] == [
        (True, Failure.NONE),
        (False, Failure.WRONG_OUTPUT),
        (False, Failure.WRONG_VALUE),
        (False, Failure.WRONG_VALUE),
        (True, Failure.NONE),
        (True, Failure.NONE),
    ]
    assert out[2].detail == "assert f([2, 1]) == [2, 1] does not hold (got [1, 2])"
    assert out[3].detail == "assert f([1]) == list(reversed([1, 2])) does not hold (got [1])"


@needs_bwrap
def test_expected_sides_run_in_a_pool_started_only_when_a_test_needs_one(
    sandbox: Sandbox,
) -> None:
    runner = Runner(sandbox)
    assert runner.one(PROGRAM, TestCase(code="assert f([2, 1]) == [1, 2]")).passed
    assert python_runner(sandbox)._references is None
    assert runner.one(PROGRAM, TestCase(code="assert f([2, 1]) == sorted([2, 1])")).passed
    references = python_runner(sandbox)._references
    assert references is not None
    python = sandbox._pools[Language.PYTHON]
    assert references is not python
    assert references.spec.uid_base == python.spec.uid_base + 2000  # uids of their own
    assert set(references.host_pids()).isdisjoint(python.host_pids())


@needs_bwrap
def test_queue_wait_is_the_oldest_queued_jobs_wait_and_zero_when_idle() -> None:
    with Sandbox(SandboxConfig(workers=1)) as sb:
        runner = Runner(sb)
        runner.assert_healthy()  # the worker is warm: what follows waits only in the queue
        assert sb.queue_wait_s() == 0.0
        done = threading.Event()
        waits: list[float] = []

        def sample() -> None:
            while not done.is_set():
                waits.append(sb.queue_wait_s())
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            out = runner.run("import time\ntime.sleep(0.4)", [TestCase()] * 3, Limits(wall_s=2))
        finally:
            done.set()
            sampler.join()
        assert [o.passed for o in out] == [True, True, True]
        # Three 0.4 s jobs on one worker: the last one queued for about 0.8 s.
        assert 0.5 < max(waits) < 2.5
        assert sb.queue_wait_s() == 0.0


@needs_bwrap
def test_warmup_starts_every_python_worker(sandbox: Sandbox) -> None:
    asyncio.run(sandbox.warmup())
    assert sandbox.status().workers == {Language.PYTHON: PoolStatus(alive=2, spawned=2, retired=0)}


@pytest.mark.parametrize("used", [False, pytest.param(True, marks=needs_bwrap)])
def test_a_closed_sandbox_refuses_with_sandbox_unavailable(used: bool) -> None:
    sb = Sandbox(SandboxConfig(workers=1))
    if used:
        assert Runner(sb).one("print(1)", TestCase(expected="1")).passed
    sb.close()
    sb.close()  # a second close does nothing
    with pytest.raises(SandboxUnavailable, match="sandbox is closed"):
        asyncio.run(sb.run_tests(Language.PYTHON, "print(1)", [TestCase()], Limits()))


def test_q_job_runs_the_script_with_the_workspace_on_top_of_the_memory_limit(
    tmp_path: os.PathLike[str],
) -> None:
    home = os.path.join(tmp_path, "q")
    os.makedirs(os.path.join(home, "l64"))
    q_bin = os.path.join(home, "l64", "q")
    config = SandboxConfig(workers=1, q_bin=q_bin, q_workspace_mb=300)
    with Sandbox(config) as sb:
        job = q_runner(sb).job("f:{x+1}", TestCase(code="show f 1", stdin="in"), Limits())
    assert job["kind"] == "exec"
    assert job["argv"][0] == q_bin
    assert job["env"] == {"QHOME": home}  # the directory above q's l64/
    assert job["limits"]["memory_mb"] == Limits().memory_mb + 300
    assert job["stdin"] == "in"
    assert list(job["files"]) == [SCRIPT_NAME]
    assert "f:{x+1}" in job["files"][SCRIPT_NAME]
    assert "show f 1" in job["files"][SCRIPT_NAME]
