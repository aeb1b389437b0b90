"""Public value types of the sandbox API."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Language(StrEnum):
    PYTHON = "python"
    Q = "q"


class Isolation(StrEnum):
    BWRAP = "bwrap"
    # rlimits + timeouts + uid drop only: no namespaces. The operator must opt in.
    NONE = "none"


@dataclass(frozen=True)
class TestCase:
    """One test. Python: ``code`` is test code run after the program (assert style; split
    into checks judged on the host where its shape allows) and/or ``stdin`` is fed to it;
    q: ``code`` is q source appended to the solution."""

    __test__ = False  # not a pytest test class

    code: str | None = None
    stdin: str | None = None
    expected: str | None = None


@dataclass(frozen=True)
class Limits:
    wall_s: float = 1.0
    cpu_s: float = 2.0
    memory_mb: int = 512
    max_processes: int = 32
    max_output_bytes: int = 64_000
    max_file_bytes: int = 8_000_000
    max_open_files: int = 64


class Failure(StrEnum):
    NONE = "none"
    WRONG_OUTPUT = "wrong_output"
    # A split assert whose program-side value, compared on the host, did not hold.
    WRONG_VALUE = "wrong_value"
    # No valid report from the test harness: the program exited (with any status) or
    # broke the report channel before the test's values or completion proof were sent.
    NO_RESULT = "no_result"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    MEMORY = "memory"
    OUTPUT_LIMIT = "output_limit"
    SANDBOX_ERROR = "sandbox_error"


@dataclass(frozen=True)
class TestOutcome:
    """Result of one test; ``stdout``/``stderr`` are capped excerpts."""

    __test__ = False

    passed: bool
    failure: Failure
    exit_code: int | None
    stdout: str
    stderr: str
    duration_s: float
    detail: str
