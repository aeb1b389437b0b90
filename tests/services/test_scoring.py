"""The scoring pipeline in-process, stage by stage: no server and no LLM verifier.

The scorer is built directly, with the real math checker and no verifier client, so every
item the modes send to the verifier keeps its rule verdict and says so.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.api.results import score_batch, to_result
from services.contract.protocol import Judge, Mode, RewardOptions, Status, Task
from services.judgement import Judgement
from services.llm_stage import LLMStage
from services.metrics import Metrics
from services.scoring import Scorer
from services.tasks.math.evidence import MathEvidence
from services.tasks.math.reward import math_reward

pytestmark = pytest.mark.anyio

RIGHT = {"id": "right", "completion": "<think>add</think><answer>\\boxed{4}</answer>"}
WRONG = {"id": "wrong", "completion": "so it is \\boxed{5}"}
# No marked answer, but one the verifier may judge (a number in words).
NONE = {"id": "none", "completion": "I think it is four."}
FALLBACK = "unavailable: no LLM verifier is configured (set VERIFIER_LLM_URL)"


def math_evidence(judgement: Judgement[Any]) -> MathEvidence:
    assert isinstance(judgement.evidence, MathEvidence)
    return judgement.evidence


def math_items(*items: dict[str, str]) -> list[dict[str, str]]:
    return [{"task": "math", "reference": "The answer is $4$.", **item} for item in items]


async def test_an_item_followed_through_every_stage(scorer: Scorer) -> None:
    options = RewardOptions(mode=Mode.ADDON, format_weight=0.5).to_policy()
    items, judged = await scorer.judge_batch(math_items(RIGHT, WRONG, NONE), options)

    # Stage 1, the math judge: the rule verdict with its evidence, the reference extracted.
    right, wrong, none = judged
    right_found, wrong_found, none_found = (math_evidence(j) for j in judged)
    assert (right.correct, right_found.answer, right_found.reference, right.judge) == (
        True,
        "4",
        "4",
        Judge.RULE,
    )
    assert right_found.accepted and right_found.format.format == 1.0
    assert (wrong.correct, wrong_found.answer, wrong.status) == (False, "5", Status.OK)
    # No marked answer, but one given without a marker: judged by the rule too.
    assert (none_found.answer, none.correct) == (None, False)
    assert none_found.unmarked is not None and none_found.unmarked.accepted
    assert none.detail == (
        "no final answer found (marked extraction); an answer given without a marker, "
        "'four', is correct (string: equal): not credited: mark the final answer to earn "
        "the correct reward"
    )

    # Stage 2, the LLM stage without a verifier: addon does not ask about the accepted
    # answer; the others keep their rule verdicts, labelled.
    stage = LLMStage(None, Metrics())
    refined = await stage.refine(items, judged, options)
    assert refined[0] is right
    for before, after in zip(judged[1:], refined[1:], strict=True):
        assert after.status is Status.UNAVAILABLE and after.judge is Judge.RULE
        assert after.detail.startswith(before.detail)
        assert after.detail.endswith(f"LLM verifier unavailable ({FALLBACK}): rule verdict used")
        assert math_evidence(after).verifier is None
    # No verdict came back: the detail names the answer that went unjudged, and never
    # says the verifier saw it.
    assert "the best-effort answer 'four' (unmarked) was not judged" in refined[2].detail
    assert "verifier saw" not in refined[2].detail

    # Stages 3 and 4, the reward policy and the wire result.
    results = [to_result(j, math_reward(j, options)) for j in refined]
    assert [r.reward for r in results] == [1.5, -1.0, -0.5]
    assert results[0].components == {
        "format": 1.0,
        "thinking": -1.0,  # "add" is shorter than the 20 words required
        "thinking_words": 1.0,
        "marked": 1.0,
        "answer": 1.0,
        "correct": 1.0,
        "no_answer": 0.0,
        # the answer was read after the reasoning block
        "reasoning_rule": 1.0,
        "after_reasoning": 1.0,
        "reasoning_unclosed": 0.0,
    }
    assert [r.extracted for r in results] == ["4", "5", "four"]

    # The scorer runs the same stages.
    response = await score_batch(scorer, math_items(RIGHT, WRONG, NONE), options)
    assert [r.model_dump() for r in response.results] == [r.model_dump() for r in results]
    assert response.summary.by_status == {"ok": 1, "unavailable": 2}


async def test_verifier_only_without_a_verifier_gives_no_reward(scorer: Scorer) -> None:
    response = await score_batch(
        scorer, math_items(RIGHT, NONE), RewardOptions(mode=Mode.VERIFIER_ONLY).to_policy()
    )
    right, none = response.results
    assert (right.reward, right.judge, right.status) == (None, Judge.NONE, Status.UNAVAILABLE)
    assert right.components["answer"] == 1.0 and right.components["correct"] == 1.0
    assert "mode 'verifier_only' has no fallback" in right.detail
    assert none.reward is None and none.components["no_answer"] == 1.0


async def test_every_task_dispatches_to_its_judge(scorer: Scorer) -> None:
    raw = [
        {"task": "math", "completion": "\\boxed{4}", "reference": "4"},
        {"task": "critique", "completion": "Total Score: 7/10", "reference": 0.5},
        {"task": "rubric", "completion": "an essay", "reference": 0.5},
        {"task": "code", "language": "python", "completion": "print(1)", "tests": [{}]},
        {"task": "poetry", "completion": "?"},
    ]
    response = await score_batch(scorer, raw, RewardOptions().to_policy())
    math, critique, rubric, code, invalid = response.results
    assert (math.task, math.reward, math.judge) == (Task.MATH, 1.0, Judge.RULE)
    assert (critique.task, critique.judge) == (Task.CRITIQUE, Judge.RULE)
    assert critique.reward == pytest.approx((1 - abs(0.7 - 0.5)) ** 2)
    assert critique.components == {"reference": 0.5, "score": pytest.approx(0.7)}
    assert critique.extracted == "7"
    # A rubric item is judged by its own judge: without a verifier it says why.
    assert (rubric.status, rubric.reward, rubric.judge) == (Status.UNAVAILABLE, None, Judge.NONE)
    assert rubric.detail.startswith("rubric grading unavailable: unavailable: no LLM verifier")
    assert rubric.components == {}
    assert (code.status, code.reward) == (Status.UNAVAILABLE, None)
    assert code.detail == "code execution is not enabled on this server"
    assert (invalid.task, invalid.status, invalid.reward) == (None, Status.ERROR, None)
    assert invalid.detail.startswith("invalid item:")
    assert [r.index for r in response.results] == [0, 1, 2, 3, 4]


async def test_judgements_are_internal_and_results_are_wire_types(scorer: Scorer) -> None:
    _, judged = await scorer.judge_batch(math_items(RIGHT), RewardOptions().to_policy())
    assert isinstance(judged[0], Judgement) and isinstance(judged[0].evidence, MathEvidence)
    long_answer = "\\boxed{" + "1" * 5000 + "}"
    _, (judgement,) = await scorer.judge_batch(
        math_items({"completion": long_answer}), RewardOptions().to_policy()
    )
    # The judgement holds the full answer; only the response's echo is cut.
    assert math_evidence(judgement).answer == "1" * 5000
    result = to_result(judgement, math_reward(judgement, RewardOptions().to_policy()))
    assert result.extracted is not None and result.extracted.endswith("[904 more characters]")
