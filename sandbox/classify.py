"""Turning a worker's raw result into a TestOutcome.

What a language's own messages say (Python's ``MemoryError``, q's error lines and licence
failures) is read by that language's :class:`StderrReading`, which its runner passes in.
"""

from __future__ import annotations

import signal
from typing import Protocol

from .frames import Reply
from .models import Failure, Limits, TestCase, TestOutcome
from .q_script import take_proof

EXCERPT_CHARS = 4096


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n…[{len(text) - limit} more characters]"


class StderrReading(Protocol):
    """A language's reading of a run's stderr."""

    def failure(self, stderr: str, limits: Limits) -> tuple[Failure, str] | None:
        """A failure the language's messages name (memory, licence) and its detail; read
        after the output cap and the time limits, before signals and the exit status."""
        ...

    def error(self, stderr: str) -> str | None:
        """The detail of an error the language reports with exit status 0 (q's error
        lines), or None."""
        ...


def _signal_name(num: int) -> str:
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


NO_Q_PROOF = (
    "q did not reach the end of the test: its completion line is missing (the solution "
    "exited before the test finished)"
)


def classify(
    reading: StderrReading,
    test: TestCase,
    raw: Reply,
    limits: Limits,
    proof: str | None = None,
) -> TestOutcome:
    """The outcome of one run. ``proof``: the line a q script prints after its test code
    (``q_script.build_script``); without it on stdout's last line the test fails."""
    if "error" in raw:
        return TestOutcome(False, Failure.SANDBOX_ERROR, None, "", "", 0.0, raw["error"])
    stdout = raw["stdout"]
    stderr = raw["stderr"]
    exit_code = raw["exit_code"]
    sig = raw["signal"]
    duration = raw["duration_s"]

    def out(failure: Failure, detail: str, passed: bool = False) -> TestOutcome:
        return TestOutcome(
            passed, failure, exit_code, excerpt(stdout), excerpt(stderr), duration, detail
        )

    if raw["output_limit"]:
        return out(
            Failure.OUTPUT_LIMIT, f"output exceeded {limits.max_output_bytes} bytes; program killed"
        )
    if raw["timed_out"]:
        return out(Failure.TIMEOUT, f"wall-clock limit of {limits.wall_s:g} s exceeded")
    cpu = raw["cpu_s"]
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu >= limits.cpu_s):
        return out(Failure.TIMEOUT, f"CPU-time limit of {limits.cpu_s:g} s exceeded")
    named = reading.failure(stderr, limits)
    if named is not None:
        return out(*named)
    if sig is not None:
        return out(Failure.RUNTIME_ERROR, f"killed by {_signal_name(sig)}")
    if exit_code != 0:
        last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
        return out(Failure.RUNTIME_ERROR, f"exit code {exit_code}: {last[:300]}".rstrip(": "))
    error = reading.error(stderr)
    if error is not None:
        return out(Failure.RUNTIME_ERROR, error)
    if proof is not None:
        shown = take_proof(stdout, proof)
        if shown is None:
            return out(Failure.NO_RESULT, NO_Q_PROOF)
        stdout = shown
    if test.expected is not None and stdout.strip() != test.expected.strip():
        return out(Failure.WRONG_OUTPUT, "stdout differs from the expected output")
    return out(Failure.NONE, "passed", passed=True)
