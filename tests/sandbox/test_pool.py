"""A real WorkerPool of bwrap-sandboxed workers: warm-up, LIFO reuse, recycling, a worker
that dies or hangs replaced (its job answered with an error), closing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from sandbox import Language, Limits, SandboxConfig, SandboxUnavailable, TestCase
from sandbox.frames import Job, Reply
from sandbox.language_runner import job_limits
from sandbox.pool import HOST_GRACE_S, WorkerPool, WorkerSpec
from sandbox.python_tests import plan_test
from sandbox.reaper import reap_adopted
from sandbox.runner import Sandbox

from .conftest import host_processes, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.timeout(120)]
MakePool = Callable[..., WorkerPool]


@pytest.fixture(scope="module")
def spec() -> Iterator[WorkerSpec]:
    """The spec the Sandbox builds for its Python workers on this machine."""
    with Sandbox(SandboxConfig(workers=1)) as sb:
        yield sb._spec(Language.PYTHON)


@pytest.fixture
def make_pool(spec: WorkerSpec) -> Iterator[MakePool]:
    """New pools of the spec's workers, all closed after the test."""
    pools: list[WorkerPool] = []

    def make(size: int = 1, recycle_after: int = 100, **kwargs: Any) -> WorkerPool:
        pools.append(WorkerPool(spec, size, recycle_after, **kwargs))
        return pools[-1]

    yield make
    for pool in pools:
        pool.close()


def job(program: str, wall_s: float = 2.0) -> Job:
    return plan_test(program, TestCase(), job_limits(Limits(wall_s=wall_s))).job


def stdout(reply: Reply) -> str:
    assert "error" not in reply, reply
    return reply["stdout"]


@pytest.mark.parametrize(("count", "started"), [(1, 1), (None, 2), (5, 2)])
def test_warm_starts_workers_up_to_the_size(
    make_pool: MakePool, count: int | None, started: int
) -> None:
    pool = make_pool(2)
    assert pool.alive() == 0
    pool.warm(count)
    assert (pool.alive(), pool.spawned) == (started, started)
    assert len(set(pool.host_pids())) == started


def test_warm_adds_to_the_workers_already_idle(make_pool: MakePool) -> None:
    pool = make_pool(2)
    pool.warm(1)
    pool.warm()
    assert (pool.alive(), pool.spawned) == (2, 2)


def test_an_idle_worker_is_reused(make_pool: MakePool) -> None:
    pool = make_pool(2)
    assert stdout(pool.run(job("print('one')"), 2.0)) == "one\n"
    pids = pool.host_pids()
    assert stdout(pool.run(job("print('two')"), 2.0)) == "two\n"
    assert pool.host_pids() == pids and pool.spawned == 1


def test_jobs_beyond_the_size_wait_for_a_worker(make_pool: MakePool) -> None:
    pool = make_pool(1)
    with ThreadPoolExecutor(max_workers=3) as threads:
        futures = [threads.submit(pool.run, job(f"print({i})"), 2.0) for i in range(3)]
        assert [stdout(f.result()) for f in futures] == ["0\n", "1\n", "2\n"]
        assert (pool.spawned, pool.retired) == (1, 0)


def test_a_worker_outlives_the_thread_that_started_it(make_pool: MakePool) -> None:
    # bwrap's --die-with-parent follows the thread that forked it: the pool forks every
    # worker from its own spawner thread, never from the caller's.
    pool = make_pool(2)
    for count in (1, 2):
        starter = threading.Thread(target=pool.warm, args=(count,))
        starter.start()
        starter.join()
    time.sleep(0.3)
    assert (pool.alive(), pool.spawned) == (2, 2)
    assert stdout(pool.run(job("print('still here')"), 2.0)) == "still here\n"
    assert pool.spawned == 2


# A service: a pool with workers started from the main thread and from a thread that has
# exited; it prints the host pids of its bwrap processes and of the workers, then waits.
SERVICE = """
import sys, threading, time
from sandbox import Language, Sandbox, SandboxConfig
from sandbox.pool import WorkerPool
pool = WorkerPool(Sandbox(SandboxConfig(workers=2))._spec(Language.PYTHON), 2, 100)
pool.warm(1)
starter = threading.Thread(target=pool.warm)
starter.start()
starter.join()
print(*[w.proc.pid for w in pool._live], *pool.host_pids(), flush=True)
time.sleep(60)
"""


def _running(pid: int) -> bool:
    """Not gone and not a zombie (a killed service's orphans may re-parent to us)."""
    state = host_processes().get(pid)
    return state is not None and state[1] != "Z"


def test_workers_die_with_the_service_process() -> None:
    service = subprocess.Popen(
        [sys.executable, "-c", SERVICE],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    try:
        assert service.stdout is not None
        pids = [int(p) for p in service.stdout.readline().split()]
        assert len(pids) == 4, pids  # two bwraps, two workers
        time.sleep(0.3)
        assert all(_running(p) for p in pids)
    finally:
        service.kill()
        service.wait()
    deadline = time.monotonic() + 10
    while any(_running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if _running(p)], "workers outlived the service"
    reap_adopted(skip=())


def test_the_spawner_thread_ends_with_the_pool(make_pool: MakePool) -> None:
    before = set(threading.enumerate())
    pool = make_pool(2)
    pool.warm()
    spawners = [t for t in set(threading.enumerate()) - before if "spawner" in t.name]
    pool.close()
    assert spawners and not any(t.is_alive() for t in spawners)


def test_a_worker_is_replaced_after_recycle_after_jobs(
    make_pool: MakePool,
) -> None:
    pool = make_pool(1, 2)
    for i in range(5):
        assert stdout(pool.run(job(f"print({i})"), 2.0)) == f"{i}\n"
    assert (pool.spawned, pool.retired) == (3, 2)


def test_a_dead_worker_fails_its_job_and_is_replaced(make_pool: MakePool) -> None:
    pool = make_pool(1)
    pool.warm()
    (pid,) = pool.host_pids()
    os.kill(pid, signal.SIGKILL)
    reply = pool.run(job("print(1)"), 2.0)
    assert "error" in reply
    assert reply["error"].startswith("sandbox worker failed during the job and was replaced")
    assert pool.retired == 1
    assert stdout(pool.run(job("print(2)"), 2.0)) == "2\n"
    assert pool.spawned == 2 and pool.host_pids() != [pid]


def test_a_hung_worker_is_given_up_after_the_wall_clock_and_grace(
    make_pool: MakePool,
) -> None:
    pool = make_pool(1)
    pool.warm()
    (pid,) = pool.host_pids()
    os.kill(pid, signal.SIGSTOP)  # the worker can no longer answer, nor time its job out
    reply = pool.run(job("print(1)", wall_s=0.2), 0.2)
    assert "error" in reply
    assert f"no answer within {0.2 + HOST_GRACE_S:.1f} s" in reply["error"]
    assert stdout(pool.run(job("print(2)"), 2.0)) == "2\n"
    assert (pool.spawned, pool.retired) == (2, 1)


def test_a_job_over_its_wall_clock_is_timed_out_by_the_worker_which_stays(
    make_pool: MakePool,
) -> None:
    pool = make_pool(1)
    reply = pool.run(job("while True: pass", wall_s=0.3), 0.3)
    assert "error" not in reply and reply["timed_out"] is True
    assert stdout(pool.run(job("print(3)"), 2.0)) == "3\n"
    assert (pool.spawned, pool.retired) == (1, 0)


def test_a_closed_pool_refuses_and_stops_its_workers(make_pool: MakePool) -> None:
    closed: list[bool] = []
    pool = make_pool(on_close=lambda: closed.append(True))
    pool.warm()
    pool.close()
    assert closed == [True]
    assert pool.alive() == 0 and pool.host_pids() == []
    with pytest.raises(SandboxUnavailable, match="sandbox is closed"):
        pool.run(job("print(1)"), 2.0)
