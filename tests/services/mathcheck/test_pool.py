"""The symbolic pool's hard deadline, with real worker processes."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from services.mathcheck.pool import SymbolicPool, SymbolicTimeout

# Passes the cheap guards but keeps sympy busy far longer than any deadline.
_STUCK = "\\prod_{k=1}^{5000} (x+k)"


def test_stuck_comparison_is_killed_and_the_pool_recovers() -> None:
    async def scenario() -> None:
        pool = SymbolicPool(workers=1, timeout_s=1.0, memory_mb=2048)
        try:
            await pool.warm()
            started = time.monotonic()
            with pytest.raises(SymbolicTimeout):
                await pool.compare("1", _STUCK)
            assert time.monotonic() - started < 10
            # The single worker was replaced: ordinary work goes on.
            verdict = await pool.compare("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}")
            assert verdict.equal
            results = await asyncio.gather(*(pool.compare(str(n), f"{n}.0") for n in range(20)))
            assert all(v.equal for v in results)
        finally:
            pool.close()

    asyncio.run(scenario())


_PAIRS = [
    ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}", True),
    ("x^2 - 1", "(x-1)(x+1)", True),
    ("\\frac{1}{3}", "0.34", False),
    ("2\\pi", "6.28", False),
]


def test_chunked_verdicts_match_one_task_per_comparison() -> None:
    async def verdicts(chunk_size: int) -> list[bool]:
        pool = SymbolicPool(workers=2, timeout_s=20.0, memory_mb=2048, chunk_size=chunk_size)
        try:
            await pool.warm()
            results = await asyncio.gather(*(pool.compare(r, a) for r, a, _ in _PAIRS * 4))
            return [v.equal for v in results]
        finally:
            pool.close()

    expected = [equal for _, _, equal in _PAIRS * 4]
    assert asyncio.run(verdicts(8)) == expected
    assert asyncio.run(verdicts(1)) == expected


def test_a_stuck_comparison_fails_alone_in_its_chunk() -> None:
    """The per-comparison timer stops the stuck one; its chunk-mates still get verdicts."""

    async def scenario() -> None:
        pool = SymbolicPool(workers=1, timeout_s=1.0, memory_mb=2048, chunk_size=8)
        try:
            await pool.warm()
            started = time.monotonic()
            jobs = [pool.compare(str(n), f"{n}.0") for n in range(3)]
            jobs.append(pool.compare("1", _STUCK))
            jobs += [pool.compare(f"\\frac{{{n}}}{{2}}", f"{n / 2}") for n in range(1, 4)]
            results = await asyncio.gather(*jobs, return_exceptions=True)
            assert time.monotonic() - started < 15
            assert isinstance(results[3], SymbolicTimeout)
            others = results[:3] + results[4:]
            assert all(not isinstance(v, BaseException) and v.equal for v in others)
        finally:
            pool.close()

    asyncio.run(scenario())


def _grandchildren() -> list[int]:
    """The pool's workers: children of the forkserver, which is a child of this process."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_bytes()
            except OSError:
                continue
            parents[int(entry)] = int(stat[stat.rindex(b")") + 2 :].split()[1])
    children = {pid for pid, parent in parents.items() if parent == os.getpid()}
    return [pid for pid, parent in parents.items() if parent in children]


def test_a_killed_worker_fails_only_the_comparison_that_was_stuck() -> None:
    """A worker killed mid-chunk (as the OOM killer would): every comparison of its chunk is
    retried as a task of its own, so the others still get verdicts."""

    async def scenario() -> None:
        pool = SymbolicPool(workers=1, timeout_s=2.0, memory_mb=2048, chunk_size=8)
        try:
            await pool.warm()
            jobs = [pool.compare("1", _STUCK)] + [pool.compare(str(n), f"{n}.0") for n in range(4)]
            gathered = asyncio.gather(*jobs, return_exceptions=True)
            await asyncio.sleep(0.5)  # the chunk is running, stuck on its first comparison
            workers = _grandchildren()
            assert workers
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            results = await gathered
            assert isinstance(results[0], SymbolicTimeout)
            assert all(not isinstance(v, BaseException) and v.equal for v in results[1:])
        finally:
            pool.close()

    asyncio.run(scenario())
