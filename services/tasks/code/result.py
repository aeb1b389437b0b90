"""A code judgement on the wire: format, the tests run and passed, and the program.

``tests_total`` counts the tests taken (run, or skipped after a timeout), ``tests_given``
the item's tests, ``tests_not_run`` those past its limit, and ``tests_capped`` is 1 when
the server's limit (not the item's ``max_tests``) left them out, which withholds the
perfect bonus."""

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
        "tests_given": float(tests.given),
        "tests_not_run": float(tests.not_run),
        "tests_capped": float(tests.capped),
    }
    if judgement.judged and reward.answer is not None:
        components.update(
            tests_passed=float(tests.passed),
            pass_fraction=tests.passed / tests.total if tests.total else 0.0,
            answer=reward.answer,
        )
    return Presented(components, preview(evidence.program, MAX_CODE_ECHO))
