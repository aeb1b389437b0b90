"""The rubric judge in-process: the grader's answer becomes a judgement (the grader itself is
exercised against vLLM in tests/services/verifier)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from services.contract.protocol import Judge, RewardOptions, Status, Task
from services.judgement import Judgement
from services.metrics import Metrics
from services.tasks.judging import BatchContext, Entry
from services.tasks.rubric.judge import RubricJudge, judge_rubric
from services.tasks.rubric.wire import RubricItem
from services.verifier import ErrorKind, RubricJudgement
from services.verifier.types import error_reason

ITEM = RubricItem(task=Task.RUBRIC, completion="an essay", reference=0.7)
UNREADABLE = RubricJudgement(
    None, critique="rambling", error=error_reason(ErrorKind.BAD_RESPONSE, "no Total Score")
)


def graded(grade: RubricJudgement) -> Judgement[Any]:
    return judge_rubric(1, ITEM, grade)


def judged_without_a_grader(metrics: Metrics) -> Sequence[Judgement[Any]]:
    context = BatchContext(RewardOptions().to_policy(), deadline=1e12, budget_s=10.0)
    return asyncio.run(RubricJudge(None, metrics).judge([Entry(0, ITEM)], context))


def test_a_grade_is_judged_by_the_verifier_against_its_target() -> None:
    judgement = graded(RubricJudgement(0.5, critique="Total Score: 5/10"))
    assert (judgement.index, judgement.status, judgement.judge, judgement.task) == (
        1,
        Status.OK,
        Judge.VERIFIER,
        Task.RUBRIC,
    )
    assert judgement.evidence is not None
    assert (judgement.evidence.grade, judgement.evidence.target) == (0.5, 0.7)
    assert judgement.detail == "graded 0.50: Total Score: 5/10"


def test_the_detail_keeps_the_end_of_a_long_critique() -> None:
    judgement = graded(RubricJudgement(0.5, critique="x" * 1000 + "Total Score: 5/10"))
    assert judgement.detail.endswith("Total Score: 5/10")
    assert len(judgement.detail) == len("graded 0.50: ") + 600


def test_an_unreadable_grade_counts_as_zero() -> None:
    judgement = graded(UNREADABLE)
    assert judgement.status is Status.OK
    assert judgement.evidence is not None and judgement.evidence.grade == 0.0
    assert judgement.detail.startswith("unparseable grade scored 0")
    assert judgement.detail.endswith(": rambling")


def test_without_a_grader_an_item_says_why_and_is_counted_as_a_fallback() -> None:
    metrics = Metrics()
    (judgement,) = judged_without_a_grader(metrics)
    assert judgement.status is Status.UNAVAILABLE and judgement.evidence is None
    assert "no LLM verifier is configured" in judgement.detail
    labels = {"mode": "rubric", "outcome": "fallback"}
    assert metrics.registry.get_sample_value("verifier_llm_items_total", labels) == 1.0
