"""The verifier client's judgements and their error reasons."""

from __future__ import annotations

import pytest

from services.verifier.types import (
    ErrorKind,
    RubricJudgement,
    VerifierJudgement,
    error_kind,
    error_reason,
)


@pytest.mark.parametrize("kind", list(ErrorKind))
def test_a_reason_starts_with_its_kind_and_gives_it_back(kind: ErrorKind) -> None:
    reason = error_reason(kind, "http://v:8000: ConnectError: refused")
    assert reason.startswith(f"{kind.value}: ")
    assert error_kind(reason) is kind


def test_no_reason_has_no_kind_and_an_unknown_one_is_refused() -> None:
    assert error_kind(None) is None
    with pytest.raises(ValueError):
        error_kind("flaky: something")


def test_a_judgement_is_ok_only_with_a_value_and_no_error() -> None:
    assert VerifierJudgement(0.8).ok
    assert not VerifierJudgement(None).ok
    failed = VerifierJudgement(0.8, error=error_reason(ErrorKind.TIMEOUT, "60s"))
    assert not failed.ok and failed.error_kind is ErrorKind.TIMEOUT
    assert RubricJudgement(0.7).ok and not RubricJudgement(None, error="rejected: 401").ok
    assert RubricJudgement(None, error="rejected: 401").error_kind is ErrorKind.REJECTED
