"""A judgement the rule judge reached, for the task tests that feed one to a reward rule or a
presenter."""

from __future__ import annotations

from typing import TypeVar

from services.contract.protocol import Judge, Status, Task
from services.judgement import Judgement

EvidenceT = TypeVar("EvidenceT")


def rule_judgement(
    task: Task, evidence: EvidenceT, correct: bool, judged: bool = True
) -> Judgement[EvidenceT]:
    """Item 0, no id, judged by the rule with this evidence and verdict."""
    return Judgement(
        index=0,
        id=None,
        task=task,
        status=Status.OK,
        judge=Judge.RULE,
        detail="",
        evidence=evidence,
        correct=correct,
        judged=judged,
    )
