"""Workers' raw results for tests that classify them without running a worker."""

from __future__ import annotations

from sandbox.frames import JobResult


def job_result(**changes: object) -> JobResult:
    """A clean, quick run that printed nothing, with ``changes`` made to it."""
    raw: JobResult = {
        "exit_code": 0,
        "signal": None,
        "stdout": "",
        "stderr": "",
        "timed_out": False,
        "output_limit": False,
        "duration_s": 0.01,
        "cpu_s": 0.01,
        "maxrss_kb": 1000,
    }
    raw.update(changes)  # type: ignore[typeddict-item]
    return raw
