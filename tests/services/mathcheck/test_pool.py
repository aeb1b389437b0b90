"""The symbolic pool's hard deadline, with real worker processes."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.mathcheck.pool import SymbolicPool, SymbolicTimeout
from services.mathcheck.symbolic import LogConvention

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


def test_the_pools_log_convention_reaches_its_workers() -> None:
    async def scenario() -> None:
        natural = SymbolicPool(1, 10.0, 2048, log_convention=LogConvention.NATURAL)
        default = SymbolicPool(1, 10.0, 2048)
        try:
            assert (await natural.compare("1", "\\log e")).equal
            assert not (await natural.compare("2", "\\log 100")).equal
            assert (await default.compare("2", "\\log 100")).equal
        finally:
            natural.close()
            default.close()

    asyncio.run(scenario())
