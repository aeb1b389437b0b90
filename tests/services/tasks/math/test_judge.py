"""The math judge in-process, with the real checker: the rule verdict and its evidence."""

from __future__ import annotations

import asyncio

import pytest

from services.contract.protocol import Judge, RewardOptions, Status, Task
from services.judgement import Judgement
from services.mathcheck.checker import MathChecker
from services.mathcheck.extraction import ReasoningRule
from services.tasks.math.evidence import MathEvidence
from services.tasks.math.judge import MathJudge
from services.tasks.math.wire import MathItem


@pytest.fixture(scope="module")
def judge(math_checker: MathChecker) -> MathJudge:
    return MathJudge(math_checker)


def _judge(
    judge: MathJudge, completion: str, reference: str = "The answer is $4$.", **options: object
) -> tuple[Judgement[MathEvidence], MathEvidence]:
    item = MathItem(id="i", completion=completion, reference=reference)
    judgement = asyncio.run(
        judge.judge_item(5, item, RewardOptions.model_validate(options).to_policy())
    )
    assert judgement.evidence is not None
    return judgement, judgement.evidence


def test_an_equal_answer_is_correct(judge: MathJudge) -> None:
    judgement, found = _judge(judge, "<think>two and two</think> so \\boxed{4}")
    assert (judgement.index, judgement.id, judgement.task) == (5, "i", Task.MATH)
    assert (judgement.status, judgement.judge, judgement.correct) == (Status.OK, Judge.RULE, True)
    assert (found.answer, found.reference, found.accepted, found.marked) == ("4", "4", True, True)
    assert found.committed.rule is ReasoningRule.AFTER_BLOCK
    assert (
        judgement.detail.startswith("correct (") and "after the reasoning block" in judgement.detail
    )


def test_a_different_answer_is_wrong(judge: MathJudge) -> None:
    judgement, found = _judge(judge, "\\boxed{5}")
    assert (judgement.correct, found.accepted, found.answer) == (False, False, "5")
    assert judgement.detail.startswith("wrong (")


def test_an_answer_inside_the_reasoning_block_does_not_count(judge: MathJudge) -> None:
    judgement, found = _judge(judge, "<think>\\boxed{4}</think> I am not sure.")
    assert (found.answer, judgement.correct) == (None, False)
    assert judgement.detail.startswith(
        "no final answer found after the reasoning block (marked extraction); an answer "
        "given inside the reasoning block only, '4', is correct"
    )
    # It is judged, never credited: hiding a right answer earns the no-answer reward.
    assert found.unmarked is not None and found.unmarked.hidden and found.unmarked.accepted
    unclosed, found = _judge(judge, "<think>\\boxed{4}")
    assert found.committed.rule is ReasoningRule.UNCLOSED and found.answer is None
    assert unclosed.detail.startswith("no final answer: the reasoning block never closes")
    assert found.unmarked is not None and found.unmarked.hidden


def test_an_answer_hidden_or_unmarked_is_judged_all_the_same(judge: MathJudge) -> None:
    # A wrong answer left unmarked, or hidden in the reasoning block, is a wrong answer.
    for completion in ("so the total is 5 apples", "<think>\\boxed{5}</think>", "<think>#### 5"):
        judgement, found = _judge(judge, completion)
        assert found.answer is None and found.unmarked is not None, completion
        assert found.unmarked.answer == "5" and not found.unmarked.accepted, completion
        assert "the wrong-answer reward" in judgement.detail
    # What is no answer stays no answer: nothing that reads as one.
    for completion in ("Thought process:", "reply True", "<think>Let me think.</think>", ":"):
        _, found = _judge(judge, completion)
        assert found.unmarked is None and found.unanswered is not None, completion


def test_the_request_s_options_apply(judge: MathJudge) -> None:
    _, found = _judge(judge, "<think>\\boxed{4}</think>", answer_after_reasoning=False)
    assert found.answer == "4"
    judgement, found = _judge(judge, "so it is 4", extraction="lenient")
    assert (found.answer, found.marked, judgement.correct) == ("4", False, True)
