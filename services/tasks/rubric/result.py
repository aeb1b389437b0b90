"""A rubric judgement on the wire: the grade and its target (no answer is extracted)."""

from __future__ import annotations

from services.judgement import Judgement
from services.rewards.policy import Reward
from services.tasks.entry import NOT_PRESENTED, Presented
from services.tasks.rubric.evidence import RubricEvidence


def present_rubric(judgement: Judgement[RubricEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None:
        return NOT_PRESENTED
    return Presented({"score": evidence.grade, "reference": evidence.target}, None)
