"""The critique judge in-process: it reads the seed's grade from each completion; no model is
asked."""

from __future__ import annotations

import asyncio

import pytest

from services.contract.protocol import Judge, RewardOptions, Status, Task
from services.tasks.critique.judge import CritiqueJudge, judge_critique
from services.tasks.critique.wire import CritiqueItem
from services.tasks.judging import BatchContext, Entry


def critique_item(completion: str, target: float) -> CritiqueItem:
    return CritiqueItem(task=Task.CRITIQUE, completion=completion, reference=target)


def test_a_readable_grade_is_read_with_its_target() -> None:
    judgement = judge_critique(2, critique_item("Fine work. Total Score: 7/10", 0.5))
    assert (judgement.index, judgement.task, judgement.judge) == (2, Task.CRITIQUE, Judge.RULE)
    assert judgement.status is Status.OK
    assert judgement.evidence is not None and judgement.evidence.grade == pytest.approx(0.7)
    assert (judgement.evidence.grade_text, judgement.evidence.target) == ("7", 0.5)
    assert judgement.detail == "grade 7/10 against 0.5"


def test_an_unreadable_grade_is_judged_without_a_grade() -> None:
    judgement = judge_critique(0, critique_item("no grade here", 0.3))
    assert judgement.status is Status.OK and judgement.evidence is not None
    assert judgement.evidence.grade is None
    assert judgement.detail == "no grade can be read from 'no grade here'"


def test_the_judge_judges_every_entry_of_a_batch_in_its_place() -> None:
    context = BatchContext(RewardOptions().to_policy(), deadline=1e12, budget_s=10.0)
    entries = [
        Entry(3, critique_item("Total Score: 2/10", 0.2)),
        Entry(7, critique_item("Total Score: 10", 1.0)),
    ]
    judged = asyncio.run(CritiqueJudge().judge(entries, context))
    assert [j.index for j in judged] == [3, 7]
    assert [j.evidence.grade for j in judged if j.evidence is not None] == pytest.approx([0.2, 1.0])
