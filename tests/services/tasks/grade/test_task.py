"""The grade task in-process: the judge reads the seed's grade, the reward rule and the
presenter use it."""

from __future__ import annotations

import pytest

from services.judgement import unjudged
from services.protocol import GradeItem, Judge, RewardOptions, Status, Task
from services.rewards.policy import NO_REWARD, RewardPolicy
from services.tasks.grade.judge import judge_grade
from services.tasks.grade.result import present_grade
from services.tasks.grade.reward import grade_reward

POLICY = RewardPolicy.from_options(RewardOptions())


def _item(completion: str, target: float) -> GradeItem:
    return GradeItem(task=Task.GRADE, completion=completion, reference=target)


def test_a_readable_grade_is_scored_against_its_target() -> None:
    judgement = judge_grade(2, _item("Fine work. Total Score: 7/10", 0.5))
    assert (judgement.index, judgement.task, judgement.judge) == (2, Task.GRADE, Judge.RULE)
    assert judgement.evidence is not None and judgement.evidence.grade == pytest.approx(0.7)
    reward = grade_reward(judgement, POLICY)
    assert reward.value == pytest.approx((1 - abs(0.7 - 0.5)) ** 2)
    presented = present_grade(judgement, reward)
    assert presented.components == {"reference": 0.5, "score": pytest.approx(0.7)}
    assert presented.extracted == "7"


def test_an_unreadable_grade_scores_zero() -> None:
    judgement = judge_grade(0, _item("no grade here", 0.3))
    assert grade_reward(judgement, POLICY).value == 0.0
    assert present_grade(judgement, grade_reward(judgement, POLICY)).components == {
        "reference": 0.3
    }


@pytest.mark.parametrize(("grade", "target", "reward"), [(7, 0.7, 1.0), (10, 0.0, 0.0)])
def test_seed_004_formula(grade: int, target: float, reward: float) -> None:
    judgement = judge_grade(0, _item(f"Total Score: {grade}/10", target))
    assert grade_reward(judgement, POLICY).value == pytest.approx(reward)


def test_an_item_no_judge_looked_at_gets_nothing() -> None:
    late = unjudged(0, None, Task.GRADE, Status.TIMEOUT, "late")
    assert grade_reward(late, POLICY) == NO_REWARD
    assert present_grade(late, NO_REWARD).components == {}
