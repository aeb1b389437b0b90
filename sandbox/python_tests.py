"""How one Python test becomes sandbox jobs, and how their replies become its outcome.

- stdin/stdout test (no ``code``): the program runs as a script; its stripped stdout must
  equal the expected output, which stays on the host.
- split test (assert code of a shape ``sandbox/test_split.py`` reads, no expected
  output): a job runs the program and then evaluates the program's call chains; a
  second job, without the program, evaluates non-literal expected sides; the host
  compares (``sandbox/verdict.py``).
- opaque test (any other code): the program runs from ``main.py``; the test code and the
  nonce of its completion record travel sealed (never in the job frame, a file, the working
  directory, the environment, argv or the program's memory) to a process of their own,
  which calls into the program once its top level returned; the record must arrive.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from .classify import classify
from .frames import JobLimits, PythonJob, Reply, SealedTest
from .models import Failure, Limits, TestCase, TestOutcome
from .test_split import SplitTest, asks_about_nan, opaque_names, rewrite_opaque, split_test
from .verdict import judge_opaque, judge_split

MAIN = "main.py"


def python_memory_error(stderr: str) -> bool:
    """The program died of an uncaught MemoryError (RLIMIT_AS reached)."""
    lines = stderr.rstrip().splitlines()
    return bool(lines) and lines[-1].startswith("MemoryError")


class PythonStderr:
    """Python's reading of a run's stderr (``classify.StderrReading``)."""

    def failure(self, stderr: str, limits: Limits) -> tuple[Failure, str] | None:
        if python_memory_error(stderr):
            return Failure.MEMORY, f"MemoryError: memory limit of {limits.memory_mb} MB"
        return None

    def error(self, stderr: str) -> str | None:
        return None  # Python reports its errors with a non-zero exit status


PYTHON_STDERR = PythonStderr()


@dataclass(frozen=True)
class PythonPlan:
    test: TestCase
    job: PythonJob
    nonce: str = ""  # of the completion record or the values' report
    split: SplitTest | None = None
    reference: PythonJob | None = None  # evaluates non-literal expected sides


def plan_test(program: str, test: TestCase, limits: JobLimits) -> PythonPlan:
    def job(source: str, **extra: object) -> PythonJob:
        base: PythonJob = {
            "kind": "python",
            "main": MAIN,
            "files": {MAIN: source},
            "stdin": test.stdin or "",
            "limits": limits,
        }
        return {**base, **extra}  # type: ignore[typeddict-item]

    if test.code is None:
        return PythonPlan(test, job(program))
    split = split_test(test.code, program) if test.expected is None else None
    nonce = _nonce()
    if split is None:
        sealed: SealedTest = {
            "code": rewrite_opaque(test.code),
            "nonce": nonce,
            "nan": asks_about_nan(test.code),
        }
        opaque = job(program, sealed=json.dumps(sealed), names=opaque_names(test.code))
        return PythonPlan(test, opaque, nonce)
    reference = None
    if split.references:
        # No program here: the expected side is computed where no program code runs.
        reference = job("", nonce=_nonce(), probes=split.references, setup=split.reference_setup)
        reference["stdin"] = ""
    # The program's run gets its call chains and nothing of the test besides.
    return PythonPlan(test, job(program, nonce=nonce, probes=split.probes), nonce, split, reference)


def plan_tests(program: str, tests: Sequence[TestCase], limits: JobLimits) -> list[PythonPlan]:
    """Every test's plan, in order (one call of the host's worker processes:
    ``sandbox/host_work.py``)."""
    return [plan_test(program, test, limits) for test in tests]


def judge_tests(
    plans: Sequence[PythonPlan], replies: Sequence[list[Reply]], limits: Limits
) -> list[TestOutcome]:
    """Every test's outcome from its plan and its jobs' replies (the program's run, then
    the reference's where it has one), in order."""
    return [judge_test(plan, got, limits) for plan, got in zip(plans, replies, strict=True)]


def judge_test(plan: PythonPlan, replies: list[Reply], limits: Limits) -> TestOutcome:
    base = classify(PYTHON_STDERR, plan.test, replies[0], limits)
    if plan.test.code is None:
        return base
    if plan.split is None:
        return judge_opaque(base, replies[0], plan.nonce)
    reference = None
    if plan.reference is not None:
        ref_base = classify(PYTHON_STDERR, TestCase(), replies[1], limits)
        reference = (ref_base, replies[1], plan.reference["nonce"])
    return judge_split(plan.split, base, replies[0], plan.nonce, reference)


def _nonce() -> str:
    return secrets.token_hex(16)
