"""Reading q's stderr without a q binary: its errors, workspace exhaustion, licence
failures, and the outcomes they make."""

from __future__ import annotations

import pytest

from sandbox import Failure, Limits, TestCase
from sandbox.classify import classify
from sandbox.q_errors import Q_STDERR, has_q_error, is_memory_error, license_problem, q_errors
from tests.sandbox.job_results import job_result


@pytest.mark.parametrize(
    ("stderr", "errors"),
    [
        ("'type\n  [0]  1+`a\n       ^\n", ["type"]),
        ("'length\n'rank\n", ["length", "rank"]),
        ("'nyi", ["nyi"]),
        ("all good\n", []),
        ("it's fine\n", []),
    ],
)
def test_q_error_detection(stderr: str, errors: list[str]) -> None:
    assert q_errors(stderr) == errors
    assert has_q_error(stderr) is bool(errors)


def test_workspace_exhaustion() -> None:
    assert is_memory_error("'wsfull\n")
    assert is_memory_error("'-w abort\n")
    assert not is_memory_error("'type\n")


@pytest.mark.parametrize(
    "stderr",
    [
        "'kc.lic\n",
        "'k4.lic\n",
        "'host\n",
        "'exp\n",
        "'2024.05.01T10:00:00.000 couldn't connect to license daemon -- exiting\n",
        "licence error: expired\n",
    ],
)
def test_license_failures_are_recognised(stderr: str) -> None:
    msg = license_problem(stderr)
    assert msg is not None and "licence" in msg


def test_kc_lic_failure_names_offline_alternative() -> None:
    msg = license_problem("'kc.lic\n")
    assert msg is not None and "network" in msg and "k4.lic" in msg


@pytest.mark.parametrize("stderr", ["'type\n", "'length\n", "", "'rank\n  [1] foo\n"])
def test_ordinary_errors_are_not_license_failures(stderr: str) -> None:
    assert license_problem(stderr) is None


def test_q_classification() -> None:
    t = TestCase(code="show 42", expected="42")
    lim = Limits()
    assert classify(Q_STDERR, t, job_result(stdout="42\n"), lim).passed
    o = classify(Q_STDERR, t, job_result(stdout="42\n", stderr="'type\n"), lim)
    assert o.failure is Failure.RUNTIME_ERROR and "'type" in o.detail  # exit 0 is not enough
    assert classify(Q_STDERR, t, job_result(stdout="41"), lim).failure is Failure.WRONG_OUTPUT
    o = classify(Q_STDERR, t, job_result(exit_code=1, stderr="'kc.lic\n"), lim)
    assert o.failure is Failure.SANDBOX_ERROR and "k4.lic" in o.detail
    o = classify(Q_STDERR, t, job_result(exit_code=1, stderr="'wsfull\n"), lim)
    assert o.failure is Failure.MEMORY
    o = classify(Q_STDERR, t, job_result(exit_code=None, signal=9, timed_out=True), lim)
    assert o.failure is Failure.TIMEOUT
