"""q under the sandbox; needs a licensed q, otherwise skipped: a q binary (Q_BIN), or pykx
installed for this Python with a licence (QLIC, KDB_K4LICENSE_B64 or KDB_LICENSE_B64). The
service's settings choose the engine as they do in production (VERIFIER_SANDBOX_Q_ENGINE)."""

from __future__ import annotations

import os
import sys

import pytest

from sandbox import Failure, Language, Sandbox, TestCase
from sandbox.q_engine import find_pykx
from services.settings import Settings

from .conftest import Runner

LICENCE_VARIABLES = ("QLIC", "KDB_K4LICENSE_B64", "KDB_LICENSE_B64")


def _licensed_q() -> bool:
    if os.environ.get("Q_BIN"):
        return True
    licensed = any(os.environ.get(name) for name in LICENCE_VARIABLES)
    return licensed and find_pykx(sys.executable) is not None


pytestmark = [
    pytest.mark.skipif(
        not _licensed_q(),
        reason="no licensed q on this machine: Q_BIN not set, and no pykx with a licence "
        "(QLIC, KDB_K4LICENSE_B64 or KDB_LICENSE_B64)",
    ),
    pytest.mark.timeout(120),
]


@pytest.fixture(scope="module")
def q_runner() -> Runner:
    return Runner(Sandbox(Settings().sandbox))


def _run(r: Runner, program: str, tests: list[TestCase]) -> list[Failure]:
    return [o.failure for o in r.run(program, tests, language=Language.Q)]


def test_q_pass_wrong_error(q_runner: Runner) -> None:
    sol = "solve:{x*2};\nexit 0;\n"
    assert _run(
        q_runner,
        sol,
        [
            TestCase(code="show solve[21];", expected="42"),
            TestCase(code="show solve[1];", expected="3"),
            TestCase(code="show solve[`a];", expected="42"),
        ],
    ) == [Failure.NONE, Failure.WRONG_OUTPUT, Failure.RUNTIME_ERROR]


def test_q_timeout_and_no_network(q_runner: Runner) -> None:
    assert _run(q_runner, "f:{while[1b;x+:1]}", [TestCase(code="f 0")]) == [Failure.TIMEOUT]
    out = q_runner.run(
        "h:@[hopen;`:1.1.1.1:53;{`failed}];",
        [TestCase(code="show h", expected="`failed")],
        language=Language.Q,
    )
    assert out[0].passed, out
    st = q_runner.sandbox.status().q
    assert st.available is True and st.version and st.reason is None


@pytest.mark.parametrize(
    "solution",
    [
        'solve:{x*2};\n-1 "42";\nexit 0;\nother:1',  # right output, then leaves early
        "solve:{exit 0};",  # leaves inside the function under test
        'solve:{-1 "42"; exit 0};',
        "solve:{x*2};\n\\\\\nother:1",  # \\ ends q as well
    ],
)
def test_q_early_exit_never_passes(q_runner: Runner, solution: str) -> None:
    outcome = q_runner.run(
        solution, [TestCase(code="show solve[21];", expected="42")], language=Language.Q
    )[0]
    assert outcome.failure is Failure.NO_RESULT, outcome


def test_q_reading_its_own_script_finds_no_expected_output(q_runner: Runner) -> None:
    # The pattern is built at run time so that the spy's own line does not match it.
    spy = 'p:"*expected-",(string 9000+321),"*";\nsolve:{$[any (read0 `:script.q) like p;42;0]};'
    outcome = q_runner.run(
        spy, [TestCase(code="show solve[21];", expected="expected-9321")], language=Language.Q
    )[0]
    assert outcome.failure is Failure.WRONG_OUTPUT and outcome.stdout.strip() == "0", outcome
