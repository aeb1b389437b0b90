"""The critique task's reward rule and its wire components, in-process.

Seed 004's critique reward: ``(1 - |grade - target|)**2``, 0.0 when no grade was read, and
nothing for an item no judge looked at.

A critique judgement on the wire: the target, the grade read, and the text it was read from,
cut short.
"""

from __future__ import annotations

import pytest

from services.contract.protocol import RewardOptions, Status, Task
from services.echo import MAX_ANSWER_ECHO
from services.judgement import unjudged
from services.rewards.policy import NO_REWARD, Reward
from services.tasks.critique.judge import judge_critique
from services.tasks.critique.task import critique_reward, present_critique
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


def test_a_read_grade_shows_its_score_target_and_text() -> None:
    judgement = judge_critique(2, critique_item("Fine work. Total Score: 7/10", 0.5))
    presented = present_critique(judgement, Reward(0.64))
    assert presented.components == {"reference": 0.5, "score": pytest.approx(0.7)}
    assert presented.extracted == "7"


def test_an_unreadable_grade_shows_only_its_target() -> None:
    presented = present_critique(
        judge_critique(0, critique_item("no grade here", 0.3)), Reward(0.0)
    )
    assert presented.components == {"reference": 0.3}
    assert presented.extracted == "no grade here"


def test_a_long_grade_text_is_cut_short() -> None:
    text = "9." + "9" * (MAX_ANSWER_ECHO * 2 - 2)  # a long but finite grade: 10/10
    presented = present_critique(
        judge_critique(0, critique_item(f"Total Score: {text}", 1.0)), Reward(1.0)
    )
    assert presented.components == {"reference": 1.0, "score": 1.0}
    assert presented.extracted == text[:MAX_ANSWER_ECHO] + f"… [{MAX_ANSWER_ECHO} more characters]"


def test_an_item_no_judge_looked_at_shows_nothing() -> None:
    late = unjudged(0, None, Task.CRITIQUE, Status.TIMEOUT, "late")
    presented = present_critique(late, NO_REWARD)
    assert (presented.components, presented.extracted) == ({}, None)
