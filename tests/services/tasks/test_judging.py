"""The judging helpers every judge shares, in-process: per-item isolation and refusal."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from services.contract.protocol import Judge, RewardOptions, Status, Task
from services.judgement import Judgement
from services.tasks.critique.wire import CritiqueItem
from services.tasks.judging import BatchContext, Entry, Unavailable, judge_each, task_of
from services.tasks.math.wire import MathItem

MATH = MathItem(id="m", completion="\\boxed{1}", reference="1")
CRITIQUE = CritiqueItem(task=Task.CRITIQUE, id=7, completion="Total Score: 1/10", reference=0.1)


def _context(budget_s: float) -> BatchContext:
    deadline = asyncio.get_running_loop().time() + budget_s
    return BatchContext(RewardOptions().to_policy(), deadline, budget_s)


async def _judge(index: int, item: MathItem) -> Judgement[Any]:
    if item.completion == "hang":
        await asyncio.sleep(60)
    if item.completion == "bug":
        raise RuntimeError("a bug in one judge")
    return Judgement(index, item.id, Task.MATH, Status.OK, Judge.RULE, "judged")


def test_a_late_item_and_a_failing_one_stay_their_own() -> None:
    hang = MATH.model_copy(update={"completion": "hang", "id": "h"})
    bug = MATH.model_copy(update={"completion": "bug", "id": "b"})

    async def run() -> list[Judgement[Any]]:
        entries = [Entry(0, MATH), Entry(1, hang), Entry(2, bug)]
        return await judge_each(entries, _context(0.2), MathItem, _judge)

    ok, late, broken = asyncio.run(run())
    assert (ok.status, ok.detail) == (Status.OK, "judged")
    assert (late.status, late.id, late.task, late.judged) == (Status.TIMEOUT, "h", Task.MATH, False)
    assert "batch time budget of 0.2s exhausted" in late.detail
    assert (broken.status, broken.evidence) == (Status.ERROR, None)
    assert broken.detail == "internal error while scoring: RuntimeError"


def test_a_judge_handed_another_task_s_item_refuses() -> None:
    async def run() -> list[Judgement[Any]]:
        return await judge_each([Entry(0, CRITIQUE)], _context(1), MathItem, _judge)

    with pytest.raises(TypeError, match="MathItem judge was handed another task's item"):
        asyncio.run(run())


def test_an_unavailable_task_says_why_for_every_item() -> None:
    async def run() -> list[Judgement[Any]]:
        return await Unavailable("no sandbox").judge([Entry(3, CRITIQUE)], _context(1))

    (judgement,) = asyncio.run(run())
    assert (judgement.index, judgement.id, judgement.task) == (3, 7, Task.CRITIQUE)
    assert (judgement.status, judgement.detail, judgement.judged) == (
        Status.UNAVAILABLE,
        "no sandbox",
        False,
    )


def test_an_item_s_task_is_the_name_its_model_carries() -> None:
    assert (task_of(MATH), task_of(CRITIQUE)) == (Task.MATH, Task.CRITIQUE)
