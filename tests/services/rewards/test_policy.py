"""The reward parameters a request sets, in-process (each task's own rule is tested in
tests/services/tasks/<task>/test_reward.py)."""

from __future__ import annotations

import pytest

from services.protocol import Mode, RewardOptions
from services.rewards.format_reward import FormatScore
from services.rewards.policy import RewardPolicy


@pytest.mark.parametrize(
    ("mode", "accepted", "p", "w", "score"),
    [
        # addon: correct if the rule accepts, else p * w
        (Mode.ADDON, True, 0.1, 1.0, 1.0),
        (Mode.ADDON, False, 0.8, 0.5, 0.4),
        # mixed: p * w + rule * (1 - w)
        (Mode.MIXED, True, 0.2, 0.5, 0.6),
        (Mode.MIXED, False, 0.8, 0.25, 0.2),
        # verifier_only: p
        (Mode.VERIFIER_ONLY, True, 0.3, 0.5, 0.3),
        (Mode.VERIFIER_ONLY, False, 0.9, 0.1, 0.9),
    ],
)
def test_tinyv_mode_scores(mode: Mode, accepted: bool, p: float, w: float, score: float) -> None:
    policy = RewardPolicy.from_options(RewardOptions(verifier_weight=w))
    assert policy.verifier_score(mode, accepted, p) == pytest.approx(score)


def test_the_total_adds_the_weighted_format_terms() -> None:
    policy = RewardPolicy.from_options(
        RewardOptions(answer_weight=2.0, format_weight=0.5, thinking_weight=0.25)
    )
    fmt = FormatScore(format=1.0, thinking=-1.0, thinking_words=3)
    assert policy.total(-1.0, fmt) == pytest.approx(-2.0 + 0.5 - 0.25)
    assert policy.options.answer_weight == 2.0
