"""The verdict of a Python test, made on the host from what the test harness reported.

Exit status 0 never passes a test by itself. A split test passes when every check holds
on the values the program's side reported, compared here against expected values the
program never saw; an opaque test passes when, besides its usual checks (exit status,
expected stdout), the harness reported that the test code ran to its end. A report
counts only when it is exactly one JSON object carrying the job's nonce.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from . import value_codec
from .frames import Reply
from .models import Failure, TestOutcome
from .test_split import Check, Operand, SplitTest

# Failures of the run itself: they stand whatever the report says.
_RUN_FAILURES = (Failure.TIMEOUT, Failure.MEMORY, Failure.OUTPUT_LIMIT, Failure.SANDBOX_ERROR)
NO_PROOF = (
    "the test code did not run to its end: no completion proof from the test harness (the "
    "program exited before the test finished, or wrote over the report channel)"
)
NO_VALUES = (
    "the test's values never reached the host: the program exited before they were "
    "evaluated, or wrote over the report channel"
)
_SHOWN = 100


def read_report(raw: Reply, nonce: str) -> dict[str, Any] | None:
    """The harness's report for this job, or None when it is missing or not for this job."""
    text = raw.get("report") if "error" not in raw else None
    if not text:
        return None
    try:
        report = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if type(report) is not dict or report.get("nonce") != nonce:
        return None
    return report


def judge_opaque(base: TestOutcome, raw: Reply, nonce: str) -> TestOutcome:
    """``base`` (exit status, stdout) still needs the harness's proof that the test ended."""
    if not base.passed:
        return base
    report = read_report(raw, nonce)
    if report is None or report != {"nonce": nonce, "done": True}:
        return replace(base, passed=False, failure=Failure.NO_RESULT, detail=NO_PROOF)
    return base


class _Failed(Exception):
    def __init__(self, failure: Failure, detail: str) -> None:
        super().__init__(detail)
        self.failure, self.detail = failure, detail


def judge_split(
    split: SplitTest,
    base: TestOutcome,
    raw: Reply,
    nonce: str,
    reference: tuple[TestOutcome, Reply, str] | None,
) -> TestOutcome:
    """Pass when every check of ``split`` holds on the reported values."""
    if base.failure in _RUN_FAILURES or base.failure is Failure.RUNTIME_ERROR:
        return base  # the program raised, exited non-zero or ran out of a limit
    try:
        expected = _reference_values(split, reference)
        values = _values(read_report(raw, nonce), len(split.probes), "program")
        if not split.nan:
            _no_nan(split, values)
        for check in split.checks:
            _judge_check(check, values, expected)
    except _Failed as failed:
        return replace(base, passed=False, failure=failed.failure, detail=failed.detail)
    except Exception as exc:  # a verdict fails a test, it never loses it
        detail = f"the test's values could not be judged: {type(exc).__name__}"
        return replace(base, passed=False, failure=Failure.WRONG_VALUE, detail=detail)
    return replace(base, passed=True, failure=Failure.NONE, detail="passed")


def _no_nan(split: SplitTest, values: list[object]) -> None:
    for check in split.checks:
        for operand in check.operands:
            if operand.where == "program" and value_codec.has_nan(values[operand.index]):
                raise _Failed(
                    Failure.WRONG_VALUE,
                    f"{check.source[:_SHOWN]}: the program's value is NaN, and the test does "
                    "not ask about NaN",
                )


def _reference_values(
    split: SplitTest, reference: tuple[TestOutcome, Reply, str] | None
) -> list[object]:
    if not split.references:
        return []
    assert reference is not None
    outcome, raw, nonce = reference
    if outcome.failure is Failure.SANDBOX_ERROR:
        raise _Failed(Failure.SANDBOX_ERROR, outcome.detail)
    if outcome.failure is not Failure.NONE:
        raise _Failed(outcome.failure, f"the test's expected side failed: {outcome.detail}")
    values = _values(read_report(raw, nonce), len(split.references), "expected")
    return values


def _values(report: dict[str, Any] | None, count: int, side: str) -> list[object]:
    if report is None:
        raise _Failed(Failure.NO_RESULT, NO_VALUES)
    if "setup_error" in report:
        raise _Failed(Failure.RUNTIME_ERROR, f"the test's set-up failed: {report['setup_error']}")
    entries = report.get("values")
    if type(entries) is not list or len(entries) != count:
        raise _Failed(Failure.NO_RESULT, NO_VALUES)
    out: list[object] = []
    for entry in entries:
        if type(entry) is not list or len(entry) != 2:
            raise _Failed(Failure.NO_RESULT, NO_VALUES)
        kind, payload = entry
        if kind == "ok":
            try:
                out.append(value_codec.decode(payload))
            except (value_codec.Unsendable, RecursionError):
                raise _Failed(Failure.NO_RESULT, NO_VALUES) from None
            continue
        what = "raised" if kind == "raised" else "returned a value that is not plain data"
        failure = Failure.RUNTIME_ERROR if side == "expected" else Failure.WRONG_VALUE
        raise _Failed(failure, f"the {side} side {what}: {str(payload)[: _SHOWN * 2]}")
    return out


def _value(operand: Operand, values: list[object], expected: list[object]) -> object:
    if operand.where == "literal":
        return operand.value
    return (values if operand.where == "program" else expected)[operand.index]


def _judge_check(check: Check, values: list[object], expected: list[object]) -> None:
    args = [_value(o, values, expected) for o in check.operands]
    try:
        ok = _relation(check, args)
    except value_codec.Incomparable as exc:
        raise _Failed(Failure.WRONG_VALUE, f"{check.source[:_SHOWN]}: {exc}") from None
    if not ok:
        shown = ", ".join(
            _show(a) for a, o in zip(args, check.operands, strict=True) if o.where == "program"
        )
        raise _Failed(Failure.WRONG_VALUE, f"{check.source[:_SHOWN]} does not hold (got {shown})")


def _relation(check: Check, args: list[object]) -> bool:
    relation = check.relation
    if relation == "truthy":
        ok = value_codec.truthy(args[0])
    elif relation == "falsy":
        ok = not value_codec.truthy(args[0])
    elif relation == "isclose":
        ok = value_codec.close(args[0], args[1], check.rel_tol, check.abs_tol)
    elif relation.startswith("within "):
        ok = value_codec.within(args[0], args[1], relation.split()[1], args[2])
    else:
        ok = value_codec.holds(relation, args[0], args[1])
    return ok


def _show(value: object) -> str:
    try:
        text = repr(value)  # a plain value the host rebuilt: its repr is Python's own
    except ValueError:  # an int of more than 4300 decimal digits
        text = f"<an int of {value.bit_length()} bits>" if type(value) is int else "<value>"
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"
