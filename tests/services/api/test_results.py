"""The wire result in-process: built from a judgement, its reward and its task's presenter."""

from __future__ import annotations

from services.api.results import to_result
from services.contract.protocol import Judge, Status, Task
from services.judgement import unjudged
from services.rewards.policy import NO_REWARD, Reward
from services.tasks.critique.judge import judge_critique
from services.tasks.critique.wire import CritiqueItem


def test_a_judged_item_is_presented_by_its_task() -> None:
    judgement = judge_critique(
        3, CritiqueItem(task=Task.CRITIQUE, id="g", completion="Total Score: 6/10", reference=0.6)
    )
    result = to_result(judgement, Reward(1.0))
    assert (result.index, result.id, result.task, result.reward) == (3, "g", Task.CRITIQUE, 1.0)
    assert (result.status, result.judge, result.detail) == (Status.OK, Judge.RULE, judgement.detail)
    assert result.components == {"reference": 0.6, "score": 0.6}
    assert result.extracted == "6"


def test_an_invalid_item_has_no_task_and_nothing_to_present() -> None:
    judgement = unjudged(1, "x", None, Status.ERROR, "invalid item: task: missing")
    result = to_result(judgement, NO_REWARD)
    assert (result.task, result.reward, result.components, result.extracted) == (
        None,
        None,
        {},
        None,
    )
    assert result.detail == "invalid item: task: missing"
