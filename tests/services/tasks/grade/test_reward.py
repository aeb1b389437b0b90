"""Seed 004's grade reward: ``(1 - |grade - target|)**2``, 0.0 when no grade was read, and
nothing for an item no judge looked at."""

from __future__ import annotations

import pytest

from services.judgement import unjudged
from services.protocol import RewardOptions, Status, Task
from services.rewards.policy import NO_REWARD, RewardPolicy
from services.tasks.grade.judge import judge_grade
from services.tasks.grade.reward import grade_reward
from tests.services.tasks.grade.test_judge import grade_item

POLICY = RewardPolicy.from_options(RewardOptions())


def test_a_readable_grade_is_scored_against_its_target() -> None:
    judgement = judge_grade(2, grade_item("Fine work. Total Score: 7/10", 0.5))
    assert grade_reward(judgement, POLICY).value == pytest.approx((1 - abs(0.7 - 0.5)) ** 2)


def test_an_unreadable_grade_scores_zero() -> None:
    judgement = judge_grade(0, grade_item("no grade here", 0.3))
    reward = grade_reward(judgement, POLICY)
    assert reward != NO_REWARD and reward.value == 0.0


@pytest.mark.parametrize(("grade", "target", "reward"), [(7, 0.7, 1.0), (10, 0.0, 0.0)])
def test_seed_004_formula(grade: int, target: float, reward: float) -> None:
    judgement = judge_grade(0, grade_item(f"Total Score: {grade}/10", target))
    assert grade_reward(judgement, POLICY).value == pytest.approx(reward)


def test_an_item_no_judge_looked_at_gets_nothing() -> None:
    late = unjudged(0, None, Task.GRADE, Status.TIMEOUT, "late")
    assert grade_reward(late, POLICY) == NO_REWARD
