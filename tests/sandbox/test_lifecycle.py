"""Worker pool lifecycle: no stray processes, recycling, isolation levels, status."""

from __future__ import annotations

import asyncio
import os
import platform
import sys
import time
import uuid

import pytest

from sandbox import (
    Failure,
    Isolation,
    IsolationStatus,
    Language,
    Limits,
    PoolStatus,
    PythonStatus,
    QStatus,
    Sandbox,
    SandboxConfig,
    SandboxUnavailable,
    TestCase,
)

from .conftest import Runner, host_processes, needs_bwrap

pytestmark = pytest.mark.timeout(120)

LEAVES_ORPHAN = "import os, time\nif os.fork() == 0:\n    time.sleep(30)\nprint('ok')\n"


def _descendants(root: int) -> dict[int, tuple[str, str]]:
    procs = host_processes()
    parents: dict[int, int] = {}
    for pid in procs:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                raw = f.read()
            parents[pid] = int(raw[raw.rindex(b")") + 2 :].split()[1])
        except OSError:
            continue
    out: dict[int, tuple[str, str]] = {}
    stack = [root]
    while stack:
        parent = stack.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid in procs and pid not in out:
                out[pid] = procs[pid]
                stack.append(pid)
    return out


@needs_bwrap
def test_thousand_runs_leave_no_zombies_or_strays() -> None:
    # Processes from earlier tests (e.g. workers of a service a test SIGKILLed, re-parented
    # to this process) are not this sandbox's: only what appears after this point counts.
    baseline = set(_descendants(os.getpid()))
    with Sandbox(SandboxConfig(workers=2, recycle_after=300)) as sb:
        r = Runner(sb)
        r.assert_healthy()
        before = _descendants(os.getpid())
        tests = [TestCase(expected="ok")] * 10
        passed = 0
        for _ in range(100):
            passed += sum(o.passed for o in r.run(LEAVES_ORPHAN, tests))
        assert passed == 1000
        # Same number of live sandbox processes as before (workers may have been recycled:
        # a replacement still starting on a loaded machine is given a few seconds), and no
        # zombies.
        settle = time.monotonic() + 5.0
        while True:
            after = _descendants(os.getpid())
            # (a zombie an earlier test left unreaped is in the baseline, not this sandbox's)
            zombies = {p: v for p, v in after.items() if v[1] == "Z" and p not in baseline}
            if (not zombies and len(after) == len(before)) or time.monotonic() > settle:
                break
            time.sleep(0.1)
        assert zombies == {}
        assert len(after) == len(before), (before, after)
        assert sb.status().workers[Language.PYTHON].retired >= 2
    deadline = time.monotonic() + 5.0
    while True:
        left = {
            p: v
            for p, v in _descendants(os.getpid()).items()
            if p not in baseline and v[0] in ("sbx-worker", "bwrap", "python3")
        }
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert left == {}, left


@needs_bwrap
def test_recycling_keeps_results_correct() -> None:
    with Sandbox(SandboxConfig(workers=1, recycle_after=3)) as sb:
        out = Runner(sb).run(
            "print(input())", [TestCase(stdin=str(i), expected=str(i)) for i in range(10)]
        )
        assert all(o.passed for o in out)
        assert sb.status().workers[Language.PYTHON].spawned >= 4


@needs_bwrap
def test_tests_run_concurrently_across_workers() -> None:
    with Sandbox(SandboxConfig(workers=2)) as sb:
        r = Runner(sb)
        r.assert_healthy()
        t = time.monotonic()
        out = r.run("import time\ntime.sleep(0.5)", [TestCase()] * 4, Limits(wall_s=2.0))
        elapsed = time.monotonic() - t
        assert all(o.passed for o in out)
        assert elapsed < 1.8  # 4 x 0.5 s on 2 workers: ~1 s, not 2 s


@needs_bwrap
def test_status_reports_isolation_python_and_q() -> None:
    with Sandbox(SandboxConfig(workers=1, q_bin=None)) as sb:
        st = sb.status()
        assert st.isolation == IsolationStatus(
            Isolation.BWRAP, ok=True, reason="bubblewrap sandbox works"
        )
        assert st.python == PythonStatus(
            ok=True, version=platform.python_version(), bin=sys.executable
        )
        assert st.q == QStatus(
            available=False, reason="Q_BIN not set: no licensed q on this machine"
        )
        assert st.workers == {Language.PYTHON: PoolStatus(alive=1, spawned=1, retired=0)}
        assert st.subreaper is True


def test_missing_bwrap_refuses_with_reason() -> None:
    with Sandbox(SandboxConfig(bwrap="/nonexistent/bwrap")) as sb:
        with pytest.raises(SandboxUnavailable, match="bubblewrap") as info:
            asyncio.run(sb.run_tests(Language.PYTHON, "print(1)", [TestCase()], Limits()))
        assert "isolation=none" in info.value.reason
        st = sb.status()
        assert st.isolation == IsolationStatus(Isolation.BWRAP, ok=False, reason=info.value.reason)
        assert st.python == PythonStatus(ok=False, reason=info.value.reason)


@needs_bwrap
def test_unusable_bwrap_refuses_with_its_error(tmp_path: os.PathLike[str]) -> None:
    # A real bwrap that cannot start the sandbox (a bad option stands in for a container
    # that forbids namespaces): the worker never says hello, the reason is bwrap's stderr.
    wrapper = os.path.join(tmp_path, "bwrap")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nexec /usr/bin/bwrap --no-such-option "$@"\n')
    os.chmod(wrapper, 0o755)
    with (
        Sandbox(SandboxConfig(bwrap=wrapper)) as sb,
        pytest.raises(SandboxUnavailable, match=r"failed to start.*no-such-option"),
    ):
        asyncio.run(sb.run_tests(Language.PYTHON, "print(1)", [TestCase()], Limits()))


def test_q_without_binary_is_unavailable() -> None:
    with (
        Sandbox(SandboxConfig(q_bin=None)) as sb,
        pytest.raises(SandboxUnavailable, match="Q_BIN not set"),
    ):
        asyncio.run(sb.run_tests(Language.Q, "x:1", [TestCase(code="show x")], Limits()))


def test_isolation_none_runs_with_limits_and_kills_daemons() -> None:
    marker = "nn" + uuid.uuid4().hex[:10]
    daemon = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        open('/proc/self/comm', 'w').write({marker!r})\n"
        "        time.sleep(30)\n"
        "    os._exit(0)\n"
        "time.sleep(0.2)\n"
    )
    with Sandbox(SandboxConfig(isolation=Isolation.NONE, workers=1)) as sb:
        r = Runner(sb)
        r.assert_healthy()
        assert r.one(daemon).passed
        time.sleep(0.1)
        assert [p for p, (c, _) in host_processes().items() if c == marker] == []
        o = r.one("while True: pass", limits=Limits(wall_s=0.5))
        assert o.failure is Failure.TIMEOUT
        o = r.one("x = bytearray(4 << 30)", limits=Limits(memory_mb=256))
        assert o.failure is Failure.MEMORY
        assert sb.status().isolation == IsolationStatus(
            Isolation.NONE, ok=True, reason="isolation=none: rlimits and timeouts only"
        )
        r.assert_healthy()
