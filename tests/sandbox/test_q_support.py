"""q support without a q binary: script assembly, error reading, licences."""

from __future__ import annotations

import base64
import json
import os
import secrets
import stat
from pathlib import Path

import pytest

from sandbox import (
    Failure,
    Language,
    Limits,
    Sandbox,
    SandboxConfig,
    SandboxUnavailable,
    TestCase,
)
from sandbox.classify import classify
from sandbox.q_errors import has_q_error, is_memory_error, license_problem, q_errors
from sandbox.q_license import prepare_license
from sandbox.q_script import build_script, q_argv, strip_trailing_exit, take_proof
from sandbox.worker_main import JobResult


def test_script_strips_trailing_exit_and_appends_test() -> None:
    sol = "solve:{x*2};\nexit 0;\n\n"
    assert build_script(sol, "show solve[21];") == "solve:{x*2};\nshow solve[21];\nexit 0;\n"
    assert strip_trailing_exit("f:{x}\nexit 0\n\\\\\n") == "f:{x}"
    # Only a trailing exit is removed; one inside the code is kept.
    assert strip_trailing_exit("if[x;exit 0];\ny:1") == "if[x;exit 0];\ny:1"
    assert build_script("a:1", None) == "a:1\n\nexit 0;\n"
    assert q_argv("/opt/q/l64/q", 256) == ["/opt/q/l64/q", "script.q", "-q", "-w", "256"]


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


def _raw(
    stdout: str = "",
    stderr: str = "",
    exit_code: int | None = 0,
    signal: int | None = None,
    timed_out: bool = False,
) -> JobResult:
    return {
        "exit_code": exit_code,
        "signal": signal,
        "stdout": stdout,
        "stderr": stderr,
        "timed_out": timed_out,
        "output_limit": False,
        "duration_s": 0.01,
        "cpu_s": 0.01,
        "maxrss_kb": 1000,
    }


def test_q_classification() -> None:
    t = TestCase(code="show 42", expected="42")
    lim = Limits()
    assert classify(Language.Q, t, _raw(stdout="42\n"), lim).passed
    o = classify(Language.Q, t, _raw(stdout="42\n", stderr="'type\n"), lim)
    assert o.failure is Failure.RUNTIME_ERROR and "'type" in o.detail  # exit 0 is not enough
    assert classify(Language.Q, t, _raw(stdout="41"), lim).failure is Failure.WRONG_OUTPUT
    o = classify(Language.Q, t, _raw(exit_code=1, stderr="'kc.lic\n"), lim)
    assert o.failure is Failure.SANDBOX_ERROR and "k4.lic" in o.detail
    o = classify(Language.Q, t, _raw(exit_code=1, stderr="'wsfull\n"), lim)
    assert o.failure is Failure.MEMORY
    o = classify(Language.Q, t, _raw(exit_code=None, signal=9, timed_out=True), lim)
    assert o.failure is Failure.TIMEOUT


def _mode(path: str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_k4_license_from_base64_is_private_and_preferred() -> None:
    k4, kc = b"K4-LICENCE-BYTES", b"KC-LICENCE-BYTES"
    lic = prepare_license(None, base64.b64encode(kc).decode(), base64.b64encode(k4).decode())
    try:
        assert lic.kind == "k4.lic" and lic.warning is None
        assert _mode(lic.path) == 0o700
        assert os.listdir(lic.path) == ["k4.lic"]
        with open(os.path.join(lic.path, "k4.lic"), "rb") as f:
            assert f.read() == k4
    finally:
        lic.cleanup()
    assert not os.path.exists(lic.path)


def test_kc_license_warns_about_network() -> None:
    lic = prepare_license(None, base64.b64encode(b"kc").decode(), None)
    try:
        assert lic.kind == "kc.lic"
        assert lic.warning is not None and "k4.lic" in lic.warning
    finally:
        lic.cleanup()


def test_license_errors_are_explained(tmp_path: os.PathLike[str]) -> None:
    with pytest.raises(SandboxUnavailable, match="not valid base64"):
        prepare_license(None, None, "not base64!!")
    with pytest.raises(SandboxUnavailable, match=r"neither k4\.lic nor kc\.lic"):
        prepare_license(str(tmp_path), None, None)
    with pytest.raises(SandboxUnavailable, match=r"k4\.lic"):
        prepare_license(None, None, None)
    open(os.path.join(tmp_path, "k4.lic"), "wb").close()
    lic = prepare_license(str(tmp_path), None, None)
    assert (lic.path, lic.kind, lic.owned) == (str(tmp_path), "k4.lic", False)
    lic.cleanup()
    assert os.path.exists(lic.path)  # a user's QLIC dir is never deleted


PROOF = "5f0c9e0d2b7a4c1e8d3f6a9b0c1d2e3f"


def test_script_prints_its_completion_line_after_the_test() -> None:
    script = build_script("solve:{x*2};\nexit 0;", "show solve[21];", PROOF)
    assert script == f'solve:{{x*2}};\nshow solve[21];\n-1 "{PROOF}";\nexit 0;\n'
    # An exit inside the solution stays where it is: q stops there, before the line.
    early = build_script("solve:{x*2};\nexit 0;\nf:1", "show solve[21];", PROOF)
    assert early.index("exit 0;") < early.index(PROOF)


def test_take_proof() -> None:
    assert take_proof(f"42\n{PROOF}\n", PROOF) == "42\n"
    assert take_proof(f"{PROOF}\n", PROOF) == ""
    assert take_proof("42\n", PROOF) is None
    assert take_proof(f"{PROOF}\n42\n", PROOF) is None  # printed early, then more output
    assert take_proof("", PROOF) is None


def test_q_tests_need_the_completion_line() -> None:
    lim = Limits()
    t = TestCase(code="show solve 21", expected="42")
    ok = classify(Language.Q, t, _raw(stdout=f"42\n{PROOF}\n"), lim, PROOF)
    assert ok.passed and ok.stdout == "42\n"
    # `exit 0` in the solution after printing the right answer: q never reached the end.
    early = classify(Language.Q, t, _raw(stdout="42\n"), lim, PROOF)
    assert early.failure is Failure.NO_RESULT and not early.passed
    silent = TestCase(code="solve 21", expected="")
    assert classify(Language.Q, silent, _raw(stdout=""), lim, PROOF).failure is Failure.NO_RESULT
    wrong = classify(Language.Q, t, _raw(stdout=f"41\n{PROOF}\n"), lim, PROOF)
    assert wrong.failure is Failure.WRONG_OUTPUT


def test_q_jobs_carry_a_fresh_proof_and_never_the_expected_output(tmp_path: Path) -> None:
    q_bin = tmp_path / "l64" / "q"
    sandbox = Sandbox(SandboxConfig(q_bin=str(q_bin), q_home=str(tmp_path)))
    try:
        test = TestCase(code="show solve 21", expected="expected-output-4242")
        first = sandbox._job(Language.Q, "solve:{x*2}", test, Limits(), secrets.token_hex(16))
        second = sandbox._job(Language.Q, "solve:{x*2}", test, Limits(), secrets.token_hex(16))
    finally:
        sandbox.close()
    assert "expected-output-4242" not in json.dumps(first)
    assert first["files"] != second["files"]  # one proof per run
    assert first["files"]["script.q"].startswith('solve:{x*2}\nshow solve 21\n-1 "')
