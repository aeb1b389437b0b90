"""Head-of-line blocking and the CPU-time verdict, on the real bwrap sandbox.

* Requests take the workers in turn: a short program does not wait behind another
  request's spinners.
* A timeout below the wall-clock limit is CPU time: a spinner dies at it, a sleeper at the
  wall clock, and an honest program that needs less CPU passes while other processes
  compete for the cores (its wall clock stretched past its CPU budget).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from sandbox import Failure, Language, Limits, Sandbox, SandboxConfig, TestCase
from sandbox.scheduler import current_flow
from tests.sandbox.conftest import needs_bwrap

pytestmark = needs_bwrap

SPIN = "while True:\n    pass\n"
CPU_S = 0.5
LIMITS = Limits(cpu_s=CPU_S, wall_s=3 * CPU_S)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(SandboxConfig(workers=2)) as sb:
        asyncio.run(sb.warmup())
        yield sb


async def _request(sandbox: Sandbox, programs: list[str]) -> float:
    """Run ``programs`` (one test each) as one request; seconds until all finished."""
    current_flow.set(object())
    started = time.monotonic()
    await asyncio.gather(
        *(
            sandbox.run_tests(Language.PYTHON, p, [TestCase(code="print(1)")], LIMITS)
            for p in programs
        )
    )
    return time.monotonic() - started


def test_a_short_request_does_not_wait_for_another_requests_spinners(sandbox: Sandbox) -> None:
    async def both() -> tuple[float, float]:
        spinners = asyncio.ensure_future(_request(sandbox, [SPIN] * 8))
        await asyncio.sleep(0.05)  # the spinners' jobs are queued first
        short = await _request(sandbox, ["x = 1\n"] * 4)
        return short, await spinners

    short, spinners = asyncio.run(both())
    # First come, first served, the short programs would start after four rounds of two
    # spinners, when the spinners' request is all but done; here on the first worker a
    # spinner frees, one by one, after one round (jobs taken in turn would put spinners
    # between them). Relative to the spinners' time: a loaded machine stretches both.
    assert spinners >= 4 * CPU_S
    assert short < 0.5 * spinners, (short, spinners)


def _one(sandbox: Sandbox, program: str, expected: str | None = None) -> tuple[Failure, str, float]:
    test = TestCase(code=None if expected else "print(1)", expected=expected)
    (outcome,) = asyncio.run(sandbox.run_tests(Language.PYTHON, program, [test], LIMITS))
    return outcome.failure, outcome.detail, outcome.duration_s


def test_a_spinner_dies_at_its_cpu_limit(sandbox: Sandbox) -> None:
    failure, detail, seconds = _one(sandbox, SPIN)
    assert failure is Failure.TIMEOUT
    assert detail == f"CPU-time limit of {CPU_S:g} s exceeded"
    assert seconds < LIMITS.wall_s


def test_processes_a_spinner_forks_share_its_cpu_limit(sandbox: Sandbox) -> None:
    forks = "import os\nfor _ in range(3):\n    if os.fork() == 0:\n        break\n" + SPIN
    failure, detail, seconds = _one(sandbox, forks)
    assert (failure, detail) == (Failure.TIMEOUT, f"CPU-time limit of {CPU_S:g} s exceeded")
    assert seconds < LIMITS.wall_s


def test_a_sleeper_dies_at_the_wall_clock_backstop(sandbox: Sandbox) -> None:
    failure, detail, seconds = _one(sandbox, "import time\ntime.sleep(30)\n")
    assert (failure, detail) == (
        Failure.TIMEOUT,
        f"wall-clock limit of {LIMITS.wall_s:g} s exceeded",
    )
    assert seconds >= LIMITS.wall_s


def test_an_honest_program_passes_while_the_cores_are_contended(sandbox: Sandbox) -> None:
    honest = (
        "import time\nend = time.process_time() + 0.3\n"
        "while time.process_time() < end:\n    pass\nprint('done')\n"
    )
    # Four spinners on the host, each in a session of its own: with the kernel's autogroup
    # scheduling, processes compete per session, as the sandbox's jobs (setsid) do. The
    # honest program then gets about 2/5 of a core: a 0.5 s wall clock would fail it.
    hogs = [
        subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True) for _ in range(4)
    ]
    try:
        time.sleep(0.2)
        failure, detail, seconds = _one(sandbox, honest, expected="done")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert (failure, detail) == (Failure.NONE, "passed"), seconds
