"""The reward parameters a request sets, in-process (the modes' scores, verifier_weight
included, are tested in test_modes.py; each task's own rule in
tests/services/tasks/<task>/test_reward.py)."""

from __future__ import annotations

import pytest

from services.contract.protocol import RewardOptions
from services.rewards.format_reward import FormatScore


def test_the_total_adds_the_weighted_format_terms() -> None:
    policy = RewardOptions(answer_weight=2.0, format_weight=0.5, thinking_weight=0.25).to_policy()
    fmt = FormatScore(format=1.0, thinking=-1.0, thinking_words=3)
    assert policy.reward.total(-1.0, fmt) == pytest.approx(-2.0 + 0.5 - 0.25)
    assert policy.reward.weights.answer == 2.0
