"""The judgement in-process: which task, what verdict, what evidence."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from services.contract.protocol import Judge, Status, Task
from services.judgement import Judgement, unjudged
from services.tasks.critique.judge import CritiqueEvidence


def test_a_judgement_names_its_task_and_carries_that_task_s_evidence() -> None:
    judgement = Judgement(
        index=0,
        id="a",
        task=Task.CRITIQUE,
        status=Status.OK,
        judge=Judge.RULE,
        detail="grade 7/10",
        evidence=CritiqueEvidence("7", 0.5, 0.7),
    )
    assert judgement.task is Task.CRITIQUE and isinstance(judgement.evidence, CritiqueEvidence)
    # Grading tasks give a score, not a verdict; a reward can be given.
    assert (judgement.correct, judgement.judged) == (None, True)
    with pytest.raises(FrozenInstanceError):
        judgement.correct = True  # type: ignore[misc]


def test_an_unjudged_item_has_no_evidence_and_no_verdict() -> None:
    judgement = unjudged(4, 9, Task.CODE, Status.UNAVAILABLE, "no sandbox")
    assert (judgement.index, judgement.id, judgement.task) == (4, 9, Task.CODE)
    assert (judgement.evidence, judgement.correct, judgement.judged) == (None, None, False)
    assert (judgement.judge, judgement.detail) == (Judge.NONE, "no sandbox")
    assert unjudged(0, None, None, Status.ERROR, "invalid item").task is None
