from __future__ import annotations

import pytest

from services.contract.protocol import Mode, RewardOptions
from services.rewards.policy import (
    RewardScale,
    combined_score,
    needs_verifier,
)


@pytest.mark.parametrize(
    ("mode", "rule_correct", "p", "w", "score"),
    [
        # rule: the rule alone
        (Mode.RULE, True, 0.1, 1.0, 1.0),
        (Mode.RULE, False, 0.9, 1.0, 0.0),
        # addon: correct if the rule accepts, else p * w
        (Mode.ADDON, True, 0.0, 1.0, 1.0),
        (Mode.ADDON, True, 0.1, 1.0, 1.0),
        (Mode.ADDON, False, 0.8, 1.0, 0.8),
        (Mode.ADDON, False, 0.8, 0.5, 0.4),
        # mixed: p * w + rule * (1 - w)
        (Mode.MIXED, True, 0.2, 0.5, 0.6),
        (Mode.MIXED, False, 0.8, 0.25, 0.2),
        # verifier_only: p
        (Mode.VERIFIER_ONLY, True, 0.3, 0.5, 0.3),
        (Mode.VERIFIER_ONLY, False, 0.9, 0.1, 0.9),
    ],
)
def test_combined_score(mode: Mode, rule_correct: bool, p: float, w: float, score: float) -> None:
    assert combined_score(mode, rule_correct, p, w) == pytest.approx(score)
    # A request's verifier_weight is the w its policy scores with.
    policy = RewardOptions(verifier_weight=w).to_policy()
    assert policy.reward.verifier_score(mode, rule_correct, p) == pytest.approx(score)


def test_only_addon_skips_answers_the_rule_accepts() -> None:
    assert not needs_verifier(Mode.RULE, False)
    assert not needs_verifier(Mode.ADDON, True) and needs_verifier(Mode.ADDON, False)
    assert needs_verifier(Mode.MIXED, True) and needs_verifier(Mode.VERIFIER_ONLY, True)


def test_scores_map_onto_the_reward_scale() -> None:
    scale = RewardScale(correct=1.0, wrong=-1.0)
    assert scale.from_score(combined_score(Mode.ADDON, False, 0.75, 1.0)) == pytest.approx(0.5)


def test_a_score_maps_from_wrong_to_correct_whatever_the_no_answer_reward() -> None:
    # Any answer the verifier was shown, marked or not, runs from wrong to correct: the
    # no-answer reward is never a floor under an answer the verifier rejects.
    for no_answer in (-0.5, -2.0, 0.5):
        scale = RewardScale(correct=1.0, wrong=-1.0, no_answer=no_answer)
        assert scale.from_score(0.0) == -1.0
        assert scale.from_score(0.5) == pytest.approx(0.0)
        assert scale.from_score(1.0) == 1.0


def test_tinyv_only_is_verifier_only() -> None:
    assert Mode("tinyv_only") is Mode.VERIFIER_ONLY
    with pytest.raises(ValueError):
        Mode("tinyv")
