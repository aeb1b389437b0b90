"""The fair scheduler: the flow with the fewest jobs running is served first, flows in turn
among equals, whatever order their jobs arrived in."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from sandbox.scheduler import FairScheduler


@pytest.fixture
def one_thread() -> Iterator[FairScheduler]:
    scheduler = FairScheduler(1, name="test")
    yield scheduler
    scheduler.shutdown()


def _blocked(scheduler: FairScheduler) -> threading.Event:
    """Occupy the scheduler's one thread until the returned event is set."""
    gate, running = threading.Event(), threading.Event()

    def hold() -> None:
        running.set()
        gate.wait(10)

    scheduler.submit("gate", hold)
    assert running.wait(10)
    return gate


def test_a_later_flow_does_not_wait_for_an_earlier_backlog(one_thread: FairScheduler) -> None:
    gate = _blocked(one_thread)
    order: list[str] = []
    futures = [one_thread.submit("a", order.append, f"a{i}") for i in range(4)]
    futures += [one_thread.submit("b", order.append, "b0")]
    futures += [one_thread.submit("c", order.append, f"c{i}") for i in range(2)]
    assert one_thread.queued() == 7
    gate.set()
    for future in futures:
        future.result(10)
    assert order == ["a0", "b0", "c0", "a1", "c1", "a2", "a3"]


def test_a_flow_with_nothing_running_goes_before_one_holding_a_thread() -> None:
    scheduler = FairScheduler(2, name="test")
    gates = [threading.Event() for _ in range(4)]
    started: list[str] = []

    def hold(i: int) -> None:
        started.append(f"long{i}")
        gates[i].wait(10)

    try:
        long = [scheduler.submit("spin", hold, i) for i in range(4)]
        time.sleep(0.1)  # both threads hold a long job
        short = [scheduler.submit("short", started.append, f"short{i}") for i in range(3)]
        gates[0].set()  # one thread frees up: the short jobs run on it, one after another
        for future in short:
            future.result(10)
    finally:
        for gate in gates:
            gate.set()
    for future in long:
        future.result(10)
    scheduler.shutdown()
    assert set(started[:2]) == {"long0", "long1"}
    assert started[2:] == ["short0", "short1", "short2", "long2", "long3"]


def test_results_and_errors_reach_the_caller(one_thread: FairScheduler) -> None:
    assert one_thread.submit("a", pow, 2, 10).result(10) == 1024
    with pytest.raises(ZeroDivisionError):
        one_thread.submit("a", divmod, 1, 0).result(10)


def test_a_cancelled_job_never_runs(one_thread: FairScheduler) -> None:
    gate = _blocked(one_thread)
    ran: list[int] = []
    dropped = one_thread.submit("a", ran.append, 1)
    kept = one_thread.submit("a", ran.append, 2)
    assert dropped.cancel()
    gate.set()
    kept.result(10)
    assert ran == [2]


def test_shutdown_cancels_what_is_queued() -> None:
    scheduler = FairScheduler(1, name="test")
    gate = _blocked(scheduler)
    queued = scheduler.submit("a", int)
    scheduler.shutdown()
    gate.set()
    assert queued.cancelled()
    with pytest.raises(RuntimeError):
        scheduler.submit("a", int)


def test_longest_wait_is_the_oldest_queued_jobs(one_thread: FairScheduler) -> None:
    assert one_thread.longest_wait_s() == 0.0
    gate = _blocked(one_thread)
    queued = one_thread.submit("a", int)
    time.sleep(0.2)
    one_thread.submit("b", int)
    assert 0.2 <= one_thread.longest_wait_s() < 5
    gate.set()
    queued.result(10)
    deadline = time.monotonic() + 5
    while one_thread.queued() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert one_thread.longest_wait_s() == 0.0


def test_a_metered_flow_counts_the_seconds_its_jobs_held_a_thread() -> None:
    scheduler = FairScheduler(2, name="test")
    try:
        assert scheduler.threads == 2
        with scheduler.metered("a") as used:
            assert used() == 0.0
            scheduler.submit("a", time.sleep, 0.2).result(10)
            scheduler.submit("other", time.sleep, 0.2).result(10)  # not a's
            assert 0.2 <= used() < 0.35
            gate = threading.Event()
            scheduler.submit("a", gate.wait, 10)
            time.sleep(0.2)
            assert used() >= 0.4  # a running job counts up to now
            gate.set()
        assert scheduler.served_s("a") == 0.0  # no longer metered
    finally:
        scheduler.shutdown()


def test_a_job_held_back_by_a_busy_thread_reports_at_least_that_wait() -> None:
    waits: list[float] = []
    longest: list[float] = []
    scheduler = FairScheduler(1, name="test", on_wait=waits.append, on_flow_wait=longest.append)
    try:
        gate = _blocked(scheduler)
        assert waits and waits[0] < 0.5  # the gate found the thread free
        with scheduler.metered("request"):
            futures = [scheduler.submit("request", time.sleep, 0) for _ in range(2)]
            queued = time.monotonic()  # both submitted: from here they are held back
            time.sleep(0.3)
            held = time.monotonic() - queued
            gate.set()
            for future in futures:
                future.result(10)
        assert len(waits) == 3
        assert min(waits[1:]) >= held
        assert longest == [max(waits[1:])]
    finally:
        scheduler.shutdown()


def test_an_unmetered_flow_and_a_flow_with_no_jobs_report_no_request_wait() -> None:
    longest: list[float] = []
    scheduler = FairScheduler(1, name="test", on_flow_wait=longest.append)
    try:
        scheduler.submit("plain", time.sleep, 0).result(10)
        with scheduler.metered("idle"):
            pass
        assert longest == []
    finally:
        scheduler.shutdown()
