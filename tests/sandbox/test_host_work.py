"""The host's worker processes: calls run in another process, in their flow's turn, and a
process that dies is replaced (its calls tried once more, each alone)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.errors import SandboxUnavailable
from sandbox.host_work import HostWork

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def host() -> Iterator[HostWork]:
    work = HostWork(1)
    yield work
    work.close()


def _pid() -> int:
    return os.getpid()


def _busy(seconds: float) -> float:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return time.monotonic()


def _dies_once(marker: str) -> str:
    if not Path(marker).exists():
        Path(marker).touch()
        os._exit(1)
    return "done"


def _always_dies() -> None:
    os._exit(1)


def _dies_if(die: bool, value: int) -> int:
    if die:
        os._exit(1)
    return value


def _raises(message: str) -> None:
    raise ValueError(message)


async def test_a_call_runs_in_another_process(host: HostWork) -> None:
    assert await host.call(object(), _pid) != os.getpid()


async def test_a_small_flow_is_served_between_a_large_ones_calls(host: HostWork) -> None:
    large, small = object(), object()
    ends = asyncio.gather(*(host.call(large, _busy, 0.1) for _ in range(12)))
    await asyncio.sleep(0.15)  # the large flow's calls hold the process and its queue
    small_end = await host.call(small, _busy, 0.0)
    large_ends = await ends
    # One process, two calls dispatched to it: the small call waits for at most the two
    # large ones before it, not for all twelve.
    assert sum(end < small_end for end in large_ends) <= 4
    assert max(large_ends) > small_end


async def test_a_process_that_dies_is_replaced_and_its_call_tried_again(
    host: HostWork, tmp_path: Path
) -> None:
    assert await host.call(object(), _dies_once, str(tmp_path / "died")) == "done"
    assert await host.call(object(), _pid) != os.getpid()


async def test_a_call_that_kills_its_process_twice_is_unavailable(host: HostWork) -> None:
    with pytest.raises(SandboxUnavailable, match="died"):
        await host.call(object(), _always_dies)
    assert await host.call(object(), _pid) != os.getpid()  # the host work goes on


async def test_a_call_that_kills_a_shared_message_fails_alone(host: HostWork) -> None:
    # Once the function's cost is known, calls queued together travel in one message; the
    # process that one of them kills takes the others' message with it. They are tried
    # again one by one: theirs come back, and only the killer's item is unavailable.
    assert await host.call(object(), _dies_if, False, -1) == -1
    flow = object()
    outcomes = await asyncio.gather(
        *(host.call(flow, _dies_if, value == 3, value) for value in range(8)),
        return_exceptions=True,
    )
    assert outcomes[:3] == [0, 1, 2] and outcomes[4:] == [4, 5, 6, 7]
    assert isinstance(outcomes[3], SandboxUnavailable)


async def test_the_functions_exception_is_the_callers(host: HostWork) -> None:
    with pytest.raises(ValueError, match="not a test"):
        await host.call(object(), _raises, "not a test")
    with pytest.raises(TypeError, match="cannot reach"):  # an argument that does not pickle
        await host.call(object(), _pid, lambda: None)
    # In a message with others, only the call that cannot travel fails.
    flow = object()
    outcomes = await asyncio.gather(
        *(host.call(flow, _dies_if, False, v if v != 2 else lambda: None) for v in range(5)),
        return_exceptions=True,
    )
    assert [o for i, o in enumerate(outcomes) if i != 2] == [0, 1, 3, 4]
    assert isinstance(outcomes[2], TypeError)
    assert await host.call(object(), _pid) != os.getpid()


def test_one_event_loop_after_another_shares_the_processes() -> None:
    # asyncio.run per call, as synchronous callers do: the next loop takes the processes over.
    work = HostWork(1)
    try:
        first = asyncio.run(work.call(object(), _pid))
        second = asyncio.run(work.call(object(), _pid))
        assert first == second != os.getpid()
    finally:
        work.close()


async def test_a_closed_host_refuses_calls() -> None:
    work = HostWork(1)
    assert await work.call(object(), _pid) != os.getpid()
    work.close()
    with pytest.raises(SandboxUnavailable, match="closed"):
        await work.call(object(), _pid)


async def test_closing_from_another_thread_leaves_the_loop_clean() -> None:
    # The service closes its sandbox from a worker thread while the loop runs: the killed
    # processes' pipes must not reach the loop's exception handler.
    loop = asyncio.get_running_loop()
    errors: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    work = HostWork(2)
    await work.warm()
    pending = asyncio.ensure_future(work.call(object(), _busy, 5.0))
    await asyncio.sleep(0.2)
    await asyncio.to_thread(work.close)
    with pytest.raises(SandboxUnavailable, match="closed"):
        await asyncio.wait_for(pending, 10)
    await asyncio.sleep(0.2)
    assert errors == []


def _echo(text: str) -> str:
    return text


@pytest.mark.parametrize("loop_kind", ["asyncio", "uvloop"])
def test_a_message_of_megabytes_travels_both_ways(loop_kind: str) -> None:
    # The service runs on uvloop, which makes the socket non-blocking: a 10 MB program and
    # its 10 MB plan go in pieces, as the socket takes them, never as one blocking write.
    import uvloop

    loop = uvloop.new_event_loop() if loop_kind == "uvloop" else asyncio.new_event_loop()
    work = HostWork(1)
    big = "# " + "z" * 10_000_000
    try:
        for _ in range(2):
            assert loop.run_until_complete(work.call(object(), _echo, big)) == big
    finally:
        work.close()
        loop.close()
