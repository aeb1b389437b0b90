"""A code judgement on the wire: format, the tests run and passed, and the program."""

from __future__ import annotations

from services.echo import MAX_CODE_ECHO, preview
from services.judgement import Judgement
from services.rewards.policy import Reward
from services.tasks.code.evidence import CodeEvidence
from services.tasks.entry import NOT_PRESENTED, Presented


def present_code(judgement: Judgement[CodeEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None:
        return NOT_PRESENTED
    tests = evidence.tests
    components = {
        "format": evidence.format.format,
        "thinking": evidence.format.thinking,
        "tests_total": float(tests.total),
        "tests_skipped": float(tests.skipped),
    }
    if judgement.judged and reward.answer is not None:
        components.update(
            tests_passed=float(tests.passed),
            pass_fraction=tests.passed / tests.total if tests.total else 0.0,
            answer=reward.answer,
        )
    return Presented(components, preview(evidence.program, MAX_CODE_ECHO))
