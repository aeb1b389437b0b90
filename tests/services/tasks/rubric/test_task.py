"""The rubric task's reward rule and its wire components, in-process.

The rubric reward (TinyV/RRM): ``(1 - |grade - target|)**2``, nothing when unjudged.

A rubric judgement on the wire: the grade and its target, no answer extracted.
"""

from __future__ import annotations

import pytest

from services.contract.protocol import RewardOptions
from services.metrics import Metrics
from services.rewards.policy import NO_REWARD, Reward
from services.tasks.rubric.task import present_rubric, rubric_task_reward
from services.verifier import RubricJudgement
from tests.services.tasks.rubric.test_judge import UNREADABLE, graded, judged_without_a_grader

POLICY = RewardOptions().to_policy()


def test_a_grade_is_scored_against_its_target() -> None:
    judgement = graded(RubricJudgement(0.5, critique="Total Score: 5/10"))
    assert rubric_task_reward(judgement, POLICY).value == pytest.approx(0.64)


def test_an_unreadable_grade_is_scored_as_zero() -> None:
    assert rubric_task_reward(graded(UNREADABLE), POLICY).value == pytest.approx(0.09)


def test_without_a_grader_an_item_gets_nothing() -> None:
    (judgement,) = judged_without_a_grader(Metrics())
    assert rubric_task_reward(judgement, POLICY) == NO_REWARD


def test_a_grade_shows_its_score_and_target() -> None:
    judgement = graded(RubricJudgement(0.5, critique="Total Score: 5/10"))
    presented = present_rubric(judgement, Reward(0.64))
    assert presented.components == {"score": 0.5, "reference": 0.7}
    assert presented.extracted is None


def test_an_item_without_a_grader_shows_nothing() -> None:
    (judgement,) = judged_without_a_grader(Metrics())
    presented = present_rubric(judgement, NO_REWARD)
    assert (presented.components, presented.extracted) == ({}, None)
