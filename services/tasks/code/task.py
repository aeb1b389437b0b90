"""The code task's registry entry."""

from __future__ import annotations

from services.admission import Backend
from services.domain import Status
from services.judgement import Judgement
from services.tasks.code.evidence import CodeEvidence
from services.tasks.code.result import present_code
from services.tasks.code.reward import code_interval, code_reward
from services.tasks.code.selection import TestLimits
from services.tasks.code.wire import WIRE, CodeItem
from services.tasks.entry import JudgeParts, TaskEntry
from services.tasks.judging import TaskJudge, Unavailable

CODE_DISABLED = "code execution is not enabled on this server"


def _judge(parts: JudgeParts) -> TaskJudge:
    return parts.code if parts.code is not None else Unavailable(CODE_DISABLED)


def _tests_run(item: CodeItem) -> int:
    """The sandbox runs every test a code item takes, under the default limits (a server
    with a sandbox counts with its code judge, which knows the server's own)."""
    return len(TestLimits().select(item).tests)


def _pass_fraction(judgement: Judgement[CodeEvidence]) -> float:
    evidence = judgement.evidence
    if evidence is None:
        return 0.0
    tests = evidence.tests
    return tests.passed / tests.total if tests.total else 0.0


def _no_program(judgement: Judgement[CodeEvidence]) -> bool:
    """No program among judged programs."""
    evidence = judgement.evidence
    return evidence is not None and evidence.program is None and judgement.status is Status.OK


ENTRY: TaskEntry[CodeEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=code_reward,
    present=present_code,
    backend=Backend.SANDBOX,
    demand=_tests_run,
    interval=code_interval,
    score=_pass_fraction,
    no_answer=_no_program,
)
