"""Seed 004's critique reward: ``(1 - |grade - target|)**2``, 0.0 when no grade was read, and
nothing for an item no judge looked at."""

from __future__ import annotations

import pytest

from services.judgement import unjudged
from services.protocol import RewardOptions, Status, Task
from services.rewards.policy import NO_REWARD
from services.tasks.critique.judge import judge_critique
from services.tasks.critique.reward import critique_reward
from tests.services.tasks.critique.test_judge import critique_item

POLICY = RewardOptions().to_policy()


def test_a_readable_grade_is_scored_against_its_target() -> None:
    judgement = judge_critique(2, critique_item("Fine work. Total Score: 7/10", 0.5))
    assert critique_reward(judgement, POLICY).value == pytest.approx((1 - abs(0.7 - 0.5)) ** 2)


def test_an_unreadable_grade_scores_zero() -> None:
    judgement = judge_critique(0, critique_item("no grade here", 0.3))
    reward = critique_reward(judgement, POLICY)
    assert reward != NO_REWARD and reward.value == 0.0


@pytest.mark.parametrize(("grade", "target", "reward"), [(7, 0.7, 1.0), (10, 0.0, 0.0)])
def test_seed_004_formula(grade: int, target: float, reward: float) -> None:
    judgement = judge_critique(0, critique_item(f"Total Score: {grade}/10", target))
    assert critique_reward(judgement, POLICY).value == pytest.approx(reward)


def test_an_item_no_judge_looked_at_gets_nothing() -> None:
    late = unjudged(0, None, Task.CRITIQUE, Status.TIMEOUT, "late")
    assert critique_reward(late, POLICY) == NO_REWARD
