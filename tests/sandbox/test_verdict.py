"""Verdicts made on the host from constructed worker replies: the harness's report must be
one JSON object carrying the job's nonce, an opaque test needs its completion proof, and a
split test passes only when every check holds on the values the program's side reported."""

from __future__ import annotations

import json
from decimal import Decimal as _decimal

import pytest

from sandbox import value_codec
from sandbox.frames import Reply
from sandbox.models import Failure, TestOutcome
from sandbox.test_split import Check, Operand, SplitTest
from sandbox.verdict import NO_PROOF, NO_VALUES, judge_opaque, judge_split, read_report

from .job_results import job_result

NONCE = "a" * 32
REF_NONCE = "b" * 32
CLEAN = TestOutcome(True, Failure.NONE, 0, "", "", 0.01, "passed")


def reply(report: object, nonce: str = NONCE) -> Reply:
    """A clean run whose report channel carried ``report`` (a dict gets ``nonce``)."""
    if isinstance(report, dict):
        report = json.dumps({"nonce": nonce, **report})
    return job_result(report=report)


def ok(*values: object) -> dict[str, object]:
    return {"values": [["ok", value_codec.encode(v)] for v in values]}


def program(index: int = 0) -> Operand:
    return Operand("program", index)


def literal(value: object) -> Operand:
    return Operand("literal", value=value)


def split(*checks: Check, probes: int = 1, references: int = 0) -> SplitTest:
    return SplitTest(
        checks=list(checks),
        probes=[f"p{i}" for i in range(probes)],
        references=[f"r{i}" for i in range(references)],
    )


EQUALS_SIX = Check("==", (program(), literal(6)), "assert f(3) == 6")


def test_read_report_takes_only_one_object_with_this_jobs_nonce() -> None:
    assert read_report(reply({"done": True}), NONCE) == {"nonce": NONCE, "done": True}
    assert read_report(reply({"done": True}, nonce=REF_NONCE), NONCE) is None
    assert read_report(job_result(), NONCE) is None  # nothing arrived
    assert read_report(job_result(report=""), NONCE) is None
    assert read_report(job_result(report="{not json"), NONCE) is None
    assert read_report(job_result(report=json.dumps([NONCE])), NONCE) is None
    assert read_report(job_result(report="[" * 100_000), NONCE) is None  # too deep to parse
    assert read_report({"error": "worker died"}, NONCE) is None


def test_opaque_passes_only_with_the_exact_completion_record() -> None:
    assert judge_opaque(CLEAN, reply({"done": True}), NONCE) is CLEAN
    for bad in (reply({"done": False}), reply({"done": True, "x": 1}), job_result()):
        outcome = judge_opaque(CLEAN, bad, NONCE)
        assert (outcome.passed, outcome.failure, outcome.detail) == (
            False,
            Failure.NO_RESULT,
            NO_PROOF,
        )
        assert outcome.exit_code == 0  # the rest of the base outcome is kept


def test_opaque_keeps_a_failure_the_base_already_found() -> None:
    base = TestOutcome(False, Failure.WRONG_OUTPUT, 0, "5", "", 0.01, "expected 6")
    assert judge_opaque(base, reply({"done": True}), NONCE) is base


def test_split_passes_when_the_reported_value_holds() -> None:
    outcome = judge_split(split(EQUALS_SIX), CLEAN, reply(ok(6)), NONCE, None)
    assert (outcome.passed, outcome.failure, outcome.detail) == (True, Failure.NONE, "passed")


def test_split_passes_on_the_values_even_when_the_exit_status_was_not_zero() -> None:
    base = TestOutcome(False, Failure.NO_RESULT, 0, "", "", 0.01, "no report")
    assert judge_split(split(EQUALS_SIX), base, reply(ok(6)), NONCE, None).passed


def test_split_shows_the_programs_value_when_a_check_does_not_hold() -> None:
    outcome = judge_split(split(EQUALS_SIX), CLEAN, reply(ok(5)), NONCE, None)
    assert (outcome.passed, outcome.failure) == (False, Failure.WRONG_VALUE)
    assert outcome.detail == "assert f(3) == 6 does not hold (got 5)"


def test_split_cuts_a_long_value_in_the_detail() -> None:
    outcome = judge_split(split(EQUALS_SIX), CLEAN, reply(ok("x" * 500)), NONCE, None)
    assert outcome.detail == "assert f(3) == 6 does not hold (got '" + "x" * 99 + "…)"


def test_split_keeps_run_failures_whatever_the_report_says() -> None:
    for failure in (Failure.TIMEOUT, Failure.MEMORY, Failure.RUNTIME_ERROR, Failure.SANDBOX_ERROR):
        base = TestOutcome(False, failure, None, "", "", 1.0, str(failure))
        assert judge_split(split(EQUALS_SIX), base, reply(ok(6)), NONCE, None) is base


@pytest.mark.parametrize(
    "raw",
    [
        job_result(),  # no report
        reply(ok(6), nonce=REF_NONCE),  # someone else's report
        reply({"values": []}),  # too few values
        reply({"values": [["ok"]]}),  # not a [kind, payload] pair
        reply({"values": [["ok", ["no such tag", 1]]]}),  # not decodable
    ],
)
def test_split_without_usable_values_is_no_result(raw: Reply) -> None:
    outcome = judge_split(split(EQUALS_SIX), CLEAN, raw, NONCE, None)
    assert (outcome.passed, outcome.failure, outcome.detail) == (
        False,
        Failure.NO_RESULT,
        NO_VALUES,
    )


def test_split_program_side_that_raised_is_a_wrong_value() -> None:
    raw = reply({"values": [["raised", "ZeroDivisionError: division by zero"]]})
    outcome = judge_split(split(EQUALS_SIX), CLEAN, raw, NONCE, None)
    assert (outcome.failure, outcome.detail) == (
        Failure.WRONG_VALUE,
        "the program side raised: ZeroDivisionError: division by zero",
    )


def test_split_setup_error_is_a_runtime_error() -> None:
    raw = reply({"setup_error": "NameError: x"})
    outcome = judge_split(split(EQUALS_SIX), CLEAN, raw, NONCE, None)
    assert (outcome.failure, outcome.detail) == (
        Failure.RUNTIME_ERROR,
        "the test's set-up failed: NameError: x",
    )


@pytest.mark.parametrize(
    ("check", "values", "passed"),
    [
        (Check("truthy", (program(),), "assert f()"), [[0]], True),
        (Check("truthy", (program(),), "assert f()"), [[]], False),
        (Check("falsy", (program(),), "assert not f()"), [""], True),
        (Check("isclose", (program(), literal(1.0)), "isclose", rel_tol=1e-3), [1.0005], True),
        (Check("isclose", (program(), literal(1.0)), "isclose"), [1.0005], False),
        (Check("within <", (program(0), literal(2.0), program(1)), "abs"), [2.05, 0.1], True),
        (Check("within <", (program(0), literal(2.0), program(1)), "abs"), [2.5, 0.1], False),
        (Check("in", (literal(2), program()), "assert 2 in f()"), [[1, 2]], True),
        (Check("<", (program(), literal(3)), "assert f() < 3"), [3], False),
    ],
)
def test_split_relations(check: Check, values: list[object], passed: bool) -> None:
    test = split(check, probes=len(values))
    assert judge_split(test, CLEAN, reply(ok(*values)), NONCE, None).passed is passed


def test_split_compares_with_the_expected_sides_values() -> None:
    check = Check("==", (program(), Operand("reference", 0)), "assert f(3) == g(3)")
    test = split(check, references=1)
    good_reference = (CLEAN, reply(ok([1, 2]), nonce=REF_NONCE), REF_NONCE)
    assert judge_split(test, CLEAN, reply(ok([1, 2])), NONCE, good_reference).passed
    failed = judge_split(test, CLEAN, reply(ok([2, 1])), NONCE, good_reference)
    assert (failed.failure, failed.detail) == (
        Failure.WRONG_VALUE,
        "assert f(3) == g(3) does not hold (got [2, 1])",
    )


def test_split_fails_when_the_expected_side_failed() -> None:
    check = Check("==", (program(), Operand("reference", 0)), "assert f(3) == g(3)")
    test = split(check, references=1)
    raised = reply({"values": [["raised", "KeyError: 1"]]}, nonce=REF_NONCE)
    outcome = judge_split(test, CLEAN, reply(ok(1)), NONCE, (CLEAN, raised, REF_NONCE))
    assert (outcome.failure, outcome.detail) == (
        Failure.RUNTIME_ERROR,
        "the expected side raised: KeyError: 1",
    )
    timed_out = TestOutcome(False, Failure.TIMEOUT, None, "", "", 1.0, "over 1 s")
    outcome = judge_split(test, CLEAN, reply(ok(1)), NONCE, (timed_out, job_result(), REF_NONCE))
    assert (outcome.failure, outcome.detail) == (
        Failure.TIMEOUT,
        "the test's expected side failed: over 1 s",
    )
    broken = TestOutcome(False, Failure.SANDBOX_ERROR, None, "", "", 0.0, "worker lost")
    outcome = judge_split(test, CLEAN, reply(ok(1)), NONCE, (broken, job_result(), REF_NONCE))
    assert (outcome.failure, outcome.detail) == (Failure.SANDBOX_ERROR, "worker lost")


@pytest.mark.parametrize(
    ("check", "value"),
    [
        # Values the host's arithmetic cannot relate: the check fails, the item is not lost.
        (Check("isclose", (program(), literal(1.0)), "assert math.isclose(f(1), 1.0)"), 10**400),
        (Check("within <", (program(), literal(1.5), literal(0.1)), "a"), 10**400),
        (Check("within <", (program(), literal(1.5), literal(0.1)), "b"), _decimal("1E+99999")),
        (Check("<", (program(), literal(0.5)), "assert f(1) < 0.5"), 10**400 + 1),
    ],
)
def test_a_value_that_cannot_be_compared_fails_its_check_with_the_reason(
    check: Check, value: object
) -> None:
    outcome = judge_split(split(check), CLEAN, reply(ok(value)), NONCE, None)
    assert not outcome.passed and outcome.failure is Failure.WRONG_VALUE
    assert "does not hold" in outcome.detail or "cannot be compared" in outcome.detail


@pytest.mark.parametrize(
    "check",
    [
        Check("!=", (program(), literal(2.0)), "assert f(1) != 2.0"),
        Check("falsy", (program(),), "assert not f(1)"),
        Check("within <", (program(), literal(float("nan")), literal(0.1)), "assert ..."),
        Check("not in", (program(), literal([1.0])), "assert f(1) not in [1.0]"),
    ],
)
def test_a_nan_from_the_program_fails_unless_the_test_asks_about_nan(check: Check) -> None:
    nan_test = split(check)
    failed = judge_split(nan_test, CLEAN, reply(ok(float("nan"))), NONCE, None)
    assert not failed.passed and "NaN" in failed.detail
    failed = judge_split(nan_test, CLEAN, reply(ok([1, float("nan")])), NONCE, None)
    assert not failed.passed and "NaN" in failed.detail
    asking = SplitTest(checks=[check], probes=["p0"], nan=True)
    outcome = judge_split(asking, CLEAN, reply(ok(float("nan"))), NONCE, None)
    assert outcome.failure is not Failure.NO_RESULT and "NaN" not in outcome.detail


def test_a_forged_report_with_values_past_the_bounds_is_no_result() -> None:
    huge_int = {"values": [["ok", ["int", "f" * (value_codec.MAX_INT_BITS // 4 + 8)]]]}
    nan_decimal = {"values": [["ok", ["decimal", "NaN"]]]}
    for report in (huge_int, nan_decimal):
        outcome = judge_split(split(EQUALS_SIX), CLEAN, reply(report), NONCE, None)
        assert not outcome.passed and outcome.failure is Failure.NO_RESULT
