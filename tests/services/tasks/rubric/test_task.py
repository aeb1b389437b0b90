"""The rubric task in-process: the grader's answer becomes a judgement, a reward and wire
components (the grader itself is exercised against vLLM in tests/services/verifier)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from services.judgement import Judgement
from services.metrics import Metrics
from services.protocol import Judge, RewardOptions, RubricItem, Status, Task
from services.rewards.policy import NO_REWARD, RewardPolicy
from services.tasks.judging import BatchContext, Entry
from services.tasks.rubric.judge import RubricJudge, judge_rubric
from services.tasks.rubric.result import present_rubric
from services.tasks.rubric.reward import rubric_task_reward
from services.verifier import ErrorKind, RubricJudgement
from services.verifier.types import error_reason

POLICY = RewardPolicy.from_options(RewardOptions())
ITEM = RubricItem(task=Task.RUBRIC, completion="an essay", reference=0.7)


def test_a_grade_is_scored_against_its_target() -> None:
    judgement = judge_rubric(1, ITEM, RubricJudgement(0.5, critique="Total Score: 5/10"))
    assert (judgement.status, judgement.judge, judgement.task) == (
        Status.OK,
        Judge.VERIFIER,
        Task.RUBRIC,
    )
    reward = rubric_task_reward(judgement, POLICY)
    assert reward.value == pytest.approx(0.64)
    presented = present_rubric(judgement, reward)
    assert presented.components == {"score": 0.5, "reference": 0.7}
    assert presented.extracted is None


def test_an_unreadable_grade_counts_as_zero() -> None:
    unreadable = error_reason(ErrorKind.BAD_RESPONSE, "no Total Score")
    judgement = judge_rubric(0, ITEM, RubricJudgement(None, critique="rambling", error=unreadable))
    assert judgement.evidence is not None and judgement.evidence.grade == 0.0
    assert judgement.detail.startswith("unparseable grade scored 0")
    assert rubric_task_reward(judgement, POLICY).value == pytest.approx(0.09)


def _judge_without_a_grader() -> Sequence[Judgement[Any]]:
    context = BatchContext(RewardOptions(), deadline=1e12, budget_s=10.0)
    return asyncio.run(RubricJudge(None, Metrics()).judge([Entry(0, ITEM)], context))


def test_without_a_grader_an_item_says_why_and_gets_nothing() -> None:
    (judgement,) = _judge_without_a_grader()
    assert judgement.status is Status.UNAVAILABLE and judgement.evidence is None
    assert "no LLM verifier is configured" in judgement.detail
    assert rubric_task_reward(judgement, POLICY) == NO_REWARD
    assert present_rubric(judgement, NO_REWARD).components == {}
