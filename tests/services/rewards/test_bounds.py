"""Every reward lies in the interval its request's reward policy defines, and a value that is
not a finite number never becomes a reward: the interval per task, the final clamp, and the
clamp at work in the real scoring pipeline (in-process, the real math checker)."""

from __future__ import annotations

import math

import pytest

from services.api.results import score_batch
from services.contract.protocol import RewardOptions, Task
from services.rewards.policy import (
    GRADED_INTERVAL,
    Reward,
    RewardInterval,
    bounded_reward,
    rubric_reward,
)
from services.scoring import Scorer
from services.tasks.policy import ScoringPolicy
from services.tasks.registry import entry_of

pytestmark = pytest.mark.anyio


def _policy(**options: float) -> ScoringPolicy:
    return RewardOptions(**options).to_policy()


def _interval(policy: ScoringPolicy, task: Task) -> RewardInterval | None:
    return entry_of(task).reward_interval(policy)


def test_the_math_interval_runs_from_the_lowest_outcome_to_correct_plus_format() -> None:
    assert _interval(_policy(), Task.MATH) == RewardInterval(-1.0, 1.0)
    # The format term adds up to its weight, the thinking penalty down to minus its weight.
    policy = _policy(format_weight=0.2, thinking_weight=0.5)
    assert _interval(policy, Task.MATH) == RewardInterval(-1.5, 1.2)
    # TinyV's 1/0/0; a no-answer reward below wrong; a negative answer weight.
    assert _interval(_policy(correct=1, wrong=0, no_answer=0), Task.MATH) == RewardInterval(0, 1)
    assert _interval(_policy(no_answer=-3), Task.MATH) == RewardInterval(-3.0, 1.0)
    assert _interval(_policy(answer_weight=-2), Task.MATH) == RewardInterval(-2.0, 2.0)


def test_the_code_interval_holds_the_perfect_bonus_and_the_empty_reward() -> None:
    assert _interval(_policy(), Task.CODE) == RewardInterval(-0.5, 2.0)
    policy = _policy(base_weight=2, perfect_bonus=3, perfect_weight=0.5, empty_code_reward=1)
    assert _interval(policy, Task.CODE) == RewardInterval(0.0, 3.5)


def test_graded_tasks_lie_in_the_unit_interval() -> None:
    for task in (Task.RUBRIC, Task.CRITIQUE):
        assert _interval(_policy(correct=5), task) == GRADED_INTERVAL == RewardInterval(0, 1)
    # The rubric formula clamps its score on both sides.
    assert rubric_reward(-100.0, 0.5) == rubric_reward(0.0, 0.5) == 0.25
    assert rubric_reward(1e300, 0.0) == 0.0


def test_a_value_outside_the_interval_is_clamped_and_said_so() -> None:
    interval = RewardInterval(-1.0, 1.0)
    assert bounded_reward(Reward(0.5, 0.5), interval).note is None
    high = bounded_reward(Reward(9841.0, 9841.0), interval)
    assert high.reward.value == 1.0 and "clamped" in str(high.note) and not high.failed
    low = bounded_reward(Reward(-1e300), interval)
    assert low.reward.value == -1.0 and not low.failed


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_value_that_is_not_finite_gets_the_lowest_reward_as_an_error(value: float) -> None:
    bounded = bounded_reward(Reward(value, value), RewardInterval(-1.0, 1.0))
    assert bounded.reward.value == -1.0 and bounded.failed
    assert bounded.reward.answer is None  # no NaN in the components either
    assert "not a finite number" in str(bounded.note)
    # With no finite lower bound to give (the request's own values overflow): no reward.
    unbounded = bounded_reward(Reward(value), RewardInterval(-math.inf, math.inf))
    assert unbounded.reward.value is None and unbounded.failed
    assert bounded_reward(Reward(value), None).reward.value is None


def test_a_nan_bound_bounds_nothing() -> None:
    assert RewardInterval(math.nan, 1.0).clamp(-5.0) == -5.0
    assert RewardInterval(math.nan, 1.0).clamp(5.0) == 1.0


# The scoring pipeline: critique text the policy controls, and request values that overflow.


async def test_the_scorer_bounds_critique_grades_a_policy_writes(scorer: Scorer) -> None:
    grades = ["-1000", "-1e200", "nan", "inf", "-inf", "1e400", "9" * 1000, "-" + "9" * 1000]
    items = [
        {"task": "critique", "completion": f"Total Score: {grade}/10", "reference": 0.5}
        for grade in grades
    ]
    response = await score_batch(scorer, items, RewardOptions().to_policy())
    for grade, result in zip(grades, response.results, strict=True):
        assert result.status.value == "ok", (grade, result)
        assert result.reward is not None and 0.0 <= result.reward <= 1.0, (grade, result)
        assert all(math.isfinite(v) for v in result.components.values())
    # -1000/10 earned ~10^4 with the seed's min(10, X)/10; clamped, it is a grade of 0.
    assert response.results[0].reward == pytest.approx(0.25)
    assert response.model_dump_json()  # serialisable, no null reward from an overflow


async def test_values_that_overflow_become_an_explicit_error(scorer: Scorer) -> None:
    # The request's own reward values overflow to inf for a right answer: the item is an
    # error and gets the lowest reward of the policy, never inf (JSON null).
    item = {"task": "math", "completion": "\\boxed{4}", "reference": "4"}
    options = RewardOptions(correct=1e308, answer_weight=10.0)
    (result,) = (await score_batch(scorer, [item], options.to_policy())).results
    assert result.status.value == "error" and result.reward == -10.0, result
    assert "not a finite number" in result.detail
    # A NaN reward value leaves no finite bound: no reward at all, said so.
    (nan,) = (
        await score_batch(scorer, [item], RewardOptions(correct=math.nan).to_policy())
    ).results
    assert nan.status.value == "error" and nan.reward is None, nan
    assert "no reward given" in nan.detail
