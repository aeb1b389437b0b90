"""A worker's raw result turned into a test outcome: the order of the checks and what each
failure says (q's own cases are in test_q_errors.py and test_q_script.py)."""

from __future__ import annotations

import signal

import pytest

from sandbox import Failure, Limits, TestCase
from sandbox.classify import EXCERPT_CHARS, classify, excerpt
from sandbox.frames import JobError, JobResult
from sandbox.python_tests import PYTHON_STDERR, python_memory_error
from tests.sandbox.job_results import job_result

LIMITS = Limits(wall_s=1.0, cpu_s=2.0, memory_mb=256, max_output_bytes=1000)
PRINTS_4 = TestCase(code="print(add(2, 2))", expected="4")


def _raw(**changes: object) -> JobResult:
    return job_result(**{"stdout": "4\n", **changes})


def test_matching_stripped_stdout_passes() -> None:
    outcome = classify(PYTHON_STDERR, PRINTS_4, _raw(stdout="  4 \n"), LIMITS)
    assert outcome.passed and outcome.failure is Failure.NONE


def test_different_stdout_is_a_wrong_output() -> None:
    outcome = classify(PYTHON_STDERR, PRINTS_4, _raw(stdout="5\n"), LIMITS)
    assert not outcome.passed and outcome.failure is Failure.WRONG_OUTPUT


def test_exit_status_zero_alone_does_not_pass_a_test_with_an_expected_output() -> None:
    outcome = classify(PYTHON_STDERR, PRINTS_4, _raw(stdout=""), LIMITS)
    assert outcome.failure is Failure.WRONG_OUTPUT


def test_a_worker_error_is_a_sandbox_error() -> None:
    error: JobError = {"error": "worker died"}
    outcome = classify(PYTHON_STDERR, PRINTS_4, error, LIMITS)
    assert outcome.failure is Failure.SANDBOX_ERROR and outcome.detail == "worker died"


@pytest.mark.parametrize(
    ("raw", "failure", "detail"),
    [
        (_raw(output_limit=True, timed_out=True), Failure.OUTPUT_LIMIT, "1000 bytes"),
        (_raw(timed_out=True, exit_code=None, signal=9), Failure.TIMEOUT, "wall-clock"),
        (_raw(exit_code=None, signal=signal.SIGXCPU), Failure.TIMEOUT, "CPU-time limit of 2 s"),
        (_raw(exit_code=None, signal=signal.SIGKILL, cpu_s=2.0), Failure.TIMEOUT, "CPU-time"),
        (_raw(exit_code=1, stderr="Traceback\nMemoryError\n"), Failure.MEMORY, "256 MB"),
        (_raw(exit_code=None, signal=signal.SIGSEGV), Failure.RUNTIME_ERROR, "SIGSEGV"),
        (_raw(exit_code=1, stderr="x\nZeroDivisionError: boom\n"), Failure.RUNTIME_ERROR,
         "exit code 1: ZeroDivisionError: boom"),
    ],
)  # fmt: skip
def test_failures_in_the_order_they_are_checked(
    raw: JobResult, failure: Failure, detail: str
) -> None:
    outcome = classify(PYTHON_STDERR, PRINTS_4, raw, LIMITS)
    assert not outcome.passed
    assert outcome.failure is failure
    assert detail in outcome.detail


def test_a_kill_below_the_cpu_budget_is_not_called_a_timeout() -> None:
    raw = _raw(exit_code=None, signal=signal.SIGKILL, cpu_s=0.5)
    outcome = classify(PYTHON_STDERR, PRINTS_4, raw, LIMITS)
    assert outcome.failure is Failure.RUNTIME_ERROR and "SIGKILL" in outcome.detail


def test_memory_error_only_when_it_ends_the_program() -> None:
    assert python_memory_error("Traceback (most recent call last):\nMemoryError\n")
    assert not python_memory_error("MemoryError was caught\nValueError: x\n")
    assert not python_memory_error("")


def test_long_output_is_cut_and_says_how_much_is_missing() -> None:
    text = "x" * (EXCERPT_CHARS + 10)
    cut = excerpt(text)
    assert cut.startswith("x" * EXCERPT_CHARS) and cut.endswith("[10 more characters]")
    assert excerpt("short") == "short"
    outcome = classify(PYTHON_STDERR, PRINTS_4, _raw(stdout=text), LIMITS)
    assert outcome.stdout == cut  # what a result carries is the excerpt
