"""The /grade and /get_reward adapters in-process, with the real math checker and no LLM
verifier or sandbox: what they report is the judgement's, not read back from the wire
result."""

from __future__ import annotations

import pytest

from services.api.adapters import grade, reward_model
from services.contract.protocol import GradeRequest, Judge, Mode, RewardModelRequest, Status
from services.scoring import Scorer
from services.tasks.policy import DEFAULTS

pytestmark = pytest.mark.anyio


async def test_a_right_and_a_wrong_answer(scorer: Scorer) -> None:
    right = await grade(
        scorer, GradeRequest(answer="so it is 1/2", reference="$\\frac{1}{2}$"), DEFAULTS
    )
    assert (right.correct, right.status, right.method) == (True, Status.OK, Judge.RULE)
    assert (right.extracted_answer, right.extracted_reference) == ("1/2", "\\frac{1}{2}")
    assert right.probability is None
    wrong = await grade(scorer, GradeRequest(answer="\\boxed{3}", reference="4"), DEFAULTS)
    assert (wrong.correct, wrong.extracted_answer) == (False, "3")
    assert wrong.explanation.startswith("wrong")


async def test_no_verdict_without_the_verifier_verifier_only_needs(scorer: Scorer) -> None:
    response = await grade(
        scorer, GradeRequest(answer="\\boxed{4}", reference="4", mode=Mode.VERIFIER_ONLY), DEFAULTS
    )
    assert (response.correct, response.status, response.method) == (
        None,
        Status.UNAVAILABLE,
        Judge.RULE,
    )
    assert "has no fallback" in response.explanation


async def test_addon_without_a_verifier_keeps_the_rule_verdict(scorer: Scorer) -> None:
    response = await grade(
        scorer, GradeRequest(answer="\\boxed{5}", reference="4", mode=Mode.ADDON), DEFAULTS
    )
    assert (response.correct, response.status) == (False, Status.UNAVAILABLE)
    assert response.explanation.endswith("rule verdict used")


async def test_get_reward_reports_the_judgements(scorer: Scorer) -> None:
    request = RewardModelRequest(
        query=["Q: 2+2? \\boxed{4}", "Q: 2+2? \\boxed{5}", "Q: 2+2? no idea", "Q: code?"],
        prompts=["Q: 2+2?", "Q: 2+2?", "Q: 2+2?", "Q: code?"],
        labels=["4", "4", "4", '{"inputs": ["1"], "outputs": ["1"]}'],
    )
    response = await reward_model(scorer, request, DEFAULTS)
    # Right, wrong, no answer; the code sample cannot run here (no sandbox): the no-answer
    # reward, counted as unavailable.
    assert response.rewards == [1.0, -1.0, -0.5, -0.5]
    assert response.scores == [1.0, 0.0, 0.0, 0.0]
    logs = response.extra_logs
    assert logs["correct"] == [1.0, 0.0, 0.0, 0.0]
    assert logs["no_answer"] == [0.0, 0.0, 1.0, 0.0]
    assert logs["unavailable"] == [0.0, 0.0, 0.0, 1.0]
    assert logs["error"] == logs["timeout"] == logs["verifier"] == [0.0] * 4
