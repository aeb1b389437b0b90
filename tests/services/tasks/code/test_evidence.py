"""What the code judge found: a value, compared whole, that no later stage can change."""

from __future__ import annotations

import dataclasses

import pytest

from services.rewards.format_reward import score_format
from services.tasks.code.evidence import CodeEvidence, PassCount


def test_a_pass_count_skips_nothing_unless_told() -> None:
    assert PassCount(2, 3) == PassCount(passed=2, total=3, skipped=0, not_run=0, capped=False)
    assert PassCount(0, 3, 2) != PassCount(0, 3)
    assert dataclasses.astuple(PassCount(1, 4, 3)) == (1, 4, 3, 0, False)


def test_all_passed_needs_every_test_the_item_asked_for() -> None:
    assert PassCount(3, 3).all_passed and PassCount(3, 3, not_run=5).all_passed
    assert PassCount(3, 3, not_run=5).given == 8
    assert not PassCount(3, 3, not_run=5, capped=True).all_passed
    assert not PassCount(2, 3).all_passed and not PassCount(0, 0).all_passed


def test_evidence_compares_by_program_format_and_tests() -> None:
    form = score_format("<think>a b c</think> done", 0)
    evidence = CodeEvidence("print(1)", form, PassCount(1, 1))
    assert evidence == CodeEvidence("print(1)", form, PassCount(1, 1))
    assert evidence != CodeEvidence(None, form, PassCount(1, 1))
    assert evidence != CodeEvidence("print(1)", form, PassCount(0, 1))
    assert dataclasses.replace(evidence, tests=PassCount(0, 1)).tests == PassCount(0, 1)


@pytest.mark.parametrize(
    "value", [PassCount(1, 2), CodeEvidence(None, score_format("", 0), PassCount(0, 0))]
)
def test_evidence_is_frozen_with_no_room_for_more_fields(value: object) -> None:
    field = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, None)
    assert not hasattr(value, "__dict__")
