"""A q test's script, without a q binary: the solution, the test, the completion line."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from sandbox import Failure, Limits, Sandbox, SandboxConfig, TestCase
from sandbox.classify import classify
from sandbox.q_errors import Q_STDERR
from sandbox.q_script import build_script, q_argv, strip_trailing_exit, take_proof
from tests.sandbox.conftest import q_runner
from tests.sandbox.job_results import job_result


def test_script_strips_trailing_exit_and_appends_test() -> None:
    sol = "solve:{x*2};\nexit 0;\n\n"
    assert build_script(sol, "show solve[21];") == "solve:{x*2};\nshow solve[21];\nexit 0;\n"
    assert strip_trailing_exit("f:{x}\nexit 0\n\\\\\n") == "f:{x}"
    # Only a trailing exit is removed; one inside the code is kept.
    assert strip_trailing_exit("if[x;exit 0];\ny:1") == "if[x;exit 0];\ny:1"
    assert build_script("a:1", None) == "a:1\n\nexit 0;\n"
    assert q_argv("/opt/q/l64/q", 256) == ["/opt/q/l64/q", "script.q", "-q", "-w", "256"]


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
    ok = classify(Q_STDERR, t, job_result(stdout=f"42\n{PROOF}\n"), lim, PROOF)
    assert ok.passed and ok.stdout == "42\n"
    # `exit 0` in the solution after printing the right answer: q never reached the end.
    early = classify(Q_STDERR, t, job_result(stdout="42\n"), lim, PROOF)
    assert early.failure is Failure.NO_RESULT and not early.passed
    silent = TestCase(code="solve 21", expected="")
    assert (
        classify(Q_STDERR, silent, job_result(stdout=""), lim, PROOF).failure is Failure.NO_RESULT
    )
    wrong = classify(Q_STDERR, t, job_result(stdout=f"41\n{PROOF}\n"), lim, PROOF)
    assert wrong.failure is Failure.WRONG_OUTPUT


def test_q_jobs_carry_a_fresh_proof_and_never_the_expected_output(tmp_path: Path) -> None:
    q_bin = tmp_path / "l64" / "q"
    q_bin.parent.mkdir()
    q_bin.write_text("#!/bin/sh\n")
    q_bin.chmod(0o755)
    sandbox = Sandbox(SandboxConfig(q_bin=str(q_bin), q_home=str(tmp_path)))
    try:
        test = TestCase(code="show solve 21", expected="expected-output-4242")
        first = q_runner(sandbox).job("solve:{x*2}", test, Limits(), secrets.token_hex(16))
        second = q_runner(sandbox).job("solve:{x*2}", test, Limits(), secrets.token_hex(16))
    finally:
        sandbox.close()
    assert "expected-output-4242" not in json.dumps(first)
    assert first["files"] != second["files"]  # one proof per run
    assert first["files"]["script.q"].startswith('solve:{x*2}\nshow solve 21\n-1 "')
