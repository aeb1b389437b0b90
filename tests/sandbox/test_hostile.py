"""Hostile programs: each is bounded in time and followed by a health check."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from sandbox import Failure, Language, Limits, Sandbox, SandboxConfig, TestCase

from .conftest import Runner, host_processes, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.timeout(60)]

REPO_FILE = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_cannot_reach_host_loopback(runner: Runner) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        server.settimeout(0.3)
        port = server.getsockname()[1]
        program = (
            "import socket\n"
            "s = socket.socket(); s.settimeout(2)\n"
            "try:\n"
            f"    s.connect(('127.0.0.1', {port})); print('CONNECTED')\n"
            "except OSError as e:\n"
            "    print('blocked', type(e).__name__)\n"
        )
        o = runner.one(program)
        # Positive control: the port really is reachable from the host itself.
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            conn, _ = server.accept()
            conn.close()
        with pytest.raises(TimeoutError):
            server.accept()  # nothing from the sandbox is queued
    assert o.passed and o.stdout.startswith("blocked"), o
    runner.assert_healthy()


def test_outside_network_fails_fast(runner: Runner) -> None:
    program = (
        "import socket, time\n"
        "t = time.monotonic()\n"
        "s = socket.socket(); s.settimeout(5)\n"
        "try:\n"
        "    s.connect(('1.1.1.1', 53)); print('CONNECTED')\n"
        "except OSError as e:\n"
        "    print('blocked', e.errno, round(time.monotonic() - t, 3))\n"
        "print(sorted(n for _, n in socket.if_nameindex()))\n"
    )
    o = runner.one(program, limits=Limits(wall_s=5.0))
    assert o.passed and o.stdout.startswith("blocked"), o
    assert float(o.stdout.split()[2]) < 0.5  # unreachable at once, no timeout wait
    assert o.stdout.splitlines()[1] == "['lo']"
    runner.assert_healthy()


def test_cannot_read_shadow_or_repo(runner: Runner) -> None:
    assert os.path.exists("/etc/shadow") and REPO_FILE.exists()  # they exist on the host
    program = (
        "import os\n"
        f"for p in ['/etc/shadow', {str(REPO_FILE)!r}, '/root', '/home', '/work']:\n"
        "    try:\n"
        "        print(p, 'READ', len(open(p).read()))\n"
        "    except OSError as e:\n"
        "        print(p, 'denied', type(e).__name__)\n"
        "print(sorted(os.listdir('/etc')))\n"
    )
    o = runner.one(program)
    assert o.passed, o
    lines = o.stdout.splitlines()
    assert all(" denied " in line for line in lines[:5]), lines
    assert "shadow" not in lines[5] and "passwd" not in lines[5]


def test_parent_environment_is_invisible(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "s3cret-" + uuid.uuid4().hex
    monkeypatch.setenv("VERIFIER_API_KEY", secret)
    monkeypatch.setenv("KDB_LICENSE_B64", secret)
    # Positive control: an ordinary child process would inherit it.
    show = "import os; print(os.environ['KDB_LICENSE_B64'])"
    leaked = subprocess.run(
        [sys.executable, "-c", show], capture_output=True, text=True, check=True
    ).stdout
    assert secret in leaked
    program = (
        "import os, glob\n"
        f"secret = {secret!r}\n"
        "found = [k for k, v in os.environ.items() if secret in v]\n"
        "for path in glob.glob('/proc/*/environ'):\n"
        "    try:\n"
        "        if secret in open(path, errors='replace').read():\n"
        "            found.append(path)\n"
        "    except OSError:\n"
        "        pass\n"
        "print('found' if found else 'clean', found, sorted(os.environ))\n"
    )
    with Sandbox(SandboxConfig(workers=1)) as sb:
        r = Runner(sb)
        o = r.one(program)
        assert o.passed and o.stdout.startswith("clean"), o
        assert "VERIFIER_API_KEY" not in o.stdout and "KDB_" not in o.stdout
        r.assert_healthy()


def test_cannot_write_outside_work_dir(runner: Runner) -> None:
    targets = [
        "/usr/evil",
        "/etc/evil",
        "/evil",
        str(REPO_FILE.parent / "evil"),
        f"{sys.base_prefix}/evil",
        "/proc/sys/kernel/evil",
    ]
    program = (
        f"for p in {targets!r}:\n"
        "    try:\n"
        "        open(p, 'w').write('x'); print('WROTE', p)\n"
        "    except OSError as e:\n"
        "        print('denied', p)\n"
        "open('ok.txt', 'w').write('fine'); print(open('ok.txt').read())\n"
    )
    o = runner.one(program)
    assert o.passed, o
    assert o.stdout.count("denied") == len(targets) and "WROTE" not in o.stdout
    assert o.stdout.rstrip().endswith("fine")
    assert not any(os.path.exists(t) for t in targets[:5])
    runner.assert_healthy()


def test_files_do_not_leak_between_jobs(runner: Runner) -> None:
    runner.one("open('/tmp/leak', 'w').write('x'); open('leak2', 'w').write('y')")
    o = runner.run(
        "import os\nprint(os.path.exists('/tmp/leak'), os.listdir('.'))", [TestCase()] * 4
    )
    assert all(x.stdout.strip() == "False ['main.py']" for x in o), o


FORK_BOMB = (
    "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
)
GIGABYTE_OF_OUTPUT = "import os\nb = b'z' * (1 << 20)\nfor _ in range(1024):\n    os.write(1, b)\n"

# A runaway program, its limits, how it must end, and the most seconds that may take (None:
# no bound is asserted).
RUNAWAYS = {
    "fork_bomb": (FORK_BOMB, Limits(wall_s=1.0, max_processes=16), Failure.TIMEOUT, 5),
    "memory_bomb": ("x = bytearray(8 << 30)", Limits(memory_mb=256), Failure.MEMORY, None),
    "infinite_loop": ("while True:\n    pass", Limits(wall_s=0.5), Failure.TIMEOUT, 3),
    "one_gigabyte_of_output": (GIGABYTE_OF_OUTPUT, Limits(wall_s=10.0), Failure.OUTPUT_LIMIT, 3),
}


@pytest.mark.parametrize(
    ("program", "limits", "failure", "within_s"), list(RUNAWAYS.values()), ids=list(RUNAWAYS)
)
def test_a_runaway_program_is_stopped(
    runner: Runner, program: str, limits: Limits, failure: Failure, within_s: float | None
) -> None:
    t = time.monotonic()
    o = runner.one(program, limits=limits)
    assert o.failure is failure
    if within_s is not None:
        assert time.monotonic() - t < within_s
    runner.assert_healthy()


def test_process_limit_applies(runner: Runner) -> None:
    program = (
        "import os, time\n"
        "n = 0\n"
        "try:\n"
        "    for _ in range(100):\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(5)\n"
        "            os._exit(0)\n"
        "        n += 1\n"
        "except OSError as e:\n"
        "    print('limited', n)\n"
    )
    o = runner.one(program, limits=Limits(wall_s=2.0, max_processes=8))
    assert o.stdout.startswith("limited"), o
    assert int(o.stdout.split()[1]) < 8
    runner.assert_healthy()


def test_signals_to_parent_and_everyone(runner: Runner) -> None:
    program = (
        "import os, signal\n"
        "for target in (os.getppid(), 1, -1):\n"
        "    for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGSTOP):\n"
        "        try:\n"
        "            os.kill(target, sig)\n"
        "        except OSError:\n"
        "            pass\n"
        "print('still here')\n"
    )
    host_before = os.getpid()
    o = runner.one(program)
    assert o.passed and o.stdout.strip() == "still here", o
    assert os.getpid() == host_before
    runner.assert_healthy()


DAEMON = (
    "import os, time\n"
    "if os.fork() == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        with open('/proc/self/comm', 'w') as f:\n"
    "            f.write({marker!r})\n"
    "        time.sleep(30)\n"
    "    os._exit(0)\n"
    "time.sleep(0.2)\n"
    "print('parent done')\n"
)


def _marked(marker: str) -> list[int]:
    return [pid for pid, (comm, _) in host_processes().items() if comm == marker]


def test_background_daemon_does_not_survive(runner: Runner) -> None:
    marker = "bg" + uuid.uuid4().hex[:10]
    # Positive control: the same program run plainly leaves its daemon behind.
    subprocess.run(
        [sys.executable, "-c", DAEMON.format(marker=marker)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    leftover = _marked(marker)
    assert leftover, "control daemon not found: the /proc scan could not detect survivors"
    for pid in leftover:
        os.kill(pid, 9)
    # The Sandbox made this process a subreaper: the control's orphans (the daemon and its
    # intermediate parent) are now our children; collect them.
    time.sleep(0.1)
    for pid, (_comm, state) in host_processes().items():
        if state == "Z":
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
    marker = "sb" + uuid.uuid4().hex[:10]
    o = runner.one(DAEMON.format(marker=marker))
    assert o.passed and o.stdout.strip() == "parent done", o
    time.sleep(0.1)
    assert _marked(marker) == []
    runner.assert_healthy()


def test_killed_worker_only_fails_that_job() -> None:
    with Sandbox(SandboxConfig(workers=1)) as sb:
        r = Runner(sb)
        r.assert_healthy()
        pool = sb._pools[Language.PYTHON]  # internals: the worker's host pid, to kill it

        def kill_workers() -> None:
            time.sleep(0.5)
            for pid in pool.host_pids():
                os.kill(pid, 9)

        threading.Thread(target=kill_workers).start()
        o = r.one("import time\ntime.sleep(3)\n", limits=Limits(wall_s=5.0))
        assert o.failure is Failure.SANDBOX_ERROR and "replaced" in o.detail
        r.assert_healthy()
        assert sb.status().workers[Language.PYTHON].spawned == 2


def test_a_program_that_replaces_os_exit_still_ends_its_job(runner: Runner) -> None:
    # The job's process ends with the worker's own os._exit, bound before any program ran:
    # a replaced one would let the job's process run on into the worker's loop until the
    # wall clock killed it.
    program = "import os\nos._exit = lambda *a: None\ndef f(x):\n    return x\n"
    tests = [TestCase(code="assert f(1) == 1"), TestCase(code="assert f(1) == 2")]
    started = time.monotonic()
    outcomes = runner.run(program, tests, Limits(wall_s=5))
    assert [o.passed for o in outcomes] == [True, False]
    assert all(o.failure is not Failure.TIMEOUT for o in outcomes)
    assert time.monotonic() - started < 4  # generous: two jobs of a few ms each
    runner.assert_healthy()
