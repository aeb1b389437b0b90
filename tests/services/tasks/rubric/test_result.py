"""A rubric judgement on the wire: the grade and its target, no answer extracted."""

from __future__ import annotations

from services.metrics import Metrics
from services.rewards.policy import NO_REWARD, Reward
from services.tasks.rubric.result import present_rubric
from services.verifier import RubricJudgement
from tests.services.tasks.rubric.test_judge import graded, judged_without_a_grader


def test_a_grade_shows_its_score_and_target() -> None:
    judgement = graded(RubricJudgement(0.5, critique="Total Score: 5/10"))
    presented = present_rubric(judgement, Reward(0.64))
    assert presented.components == {"score": 0.5, "reference": 0.7}
    assert presented.extracted is None


def test_an_item_without_a_grader_shows_nothing() -> None:
    (judgement,) = judged_without_a_grader(Metrics())
    presented = present_rubric(judgement, NO_REWARD)
    assert (presented.components, presented.extracted) == ({}, None)
