"""The host's worker processes: calls run in another process, in their flow's turn, and a
process that dies is replaced (its call tried once more)."""

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
