"""The /grade adapter in-process, with the real math checker and no LLM verifier: its
verdict is the judgement's, not read back from the wire result."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from services.adapters import grade
from services.protocol import GradeRequest, Judge, Mode, Status
from services.scoring import Scorer
from tests.services.in_process import rule_scorer

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def scorer() -> AsyncIterator[Scorer]:
    async with rule_scorer() as scorer:
        yield scorer


async def test_a_right_and_a_wrong_answer(scorer: Scorer) -> None:
    right = await grade(scorer, GradeRequest(answer="so it is 1/2", reference="$\\frac{1}{2}$"))
    assert (right.correct, right.status, right.method) == (True, Status.OK, Judge.RULE)
    assert (right.extracted_answer, right.extracted_reference) == ("1/2", "\\frac{1}{2}")
    assert right.probability is None
    wrong = await grade(scorer, GradeRequest(answer="\\boxed{3}", reference="4"))
    assert (wrong.correct, wrong.extracted_answer) == (False, "3")
    assert wrong.explanation.startswith("wrong")


async def test_no_verdict_without_the_verifier_verifier_only_needs(scorer: Scorer) -> None:
    response = await grade(
        scorer, GradeRequest(answer="\\boxed{4}", reference="4", mode=Mode.VERIFIER_ONLY)
    )
    assert (response.correct, response.status, response.method) == (
        None,
        Status.UNAVAILABLE,
        Judge.RULE,
    )
    assert "has no fallback" in response.explanation


async def test_addon_without_a_verifier_keeps_the_rule_verdict(scorer: Scorer) -> None:
    response = await grade(
        scorer, GradeRequest(answer="\\boxed{5}", reference="4", mode=Mode.ADDON)
    )
    assert (response.correct, response.status) == (False, Status.UNAVAILABLE)
    assert response.explanation.endswith("rule verdict used")
