"""A critique judgement on the wire: the target, the grade read, and the text it was read
from."""

from __future__ import annotations

from services.echo import MAX_ANSWER_ECHO, preview
from services.judgement import Judgement
from services.rewards.policy import Reward
from services.tasks.critique.evidence import CritiqueEvidence
from services.tasks.entry import NOT_PRESENTED, Presented


def present_critique(judgement: Judgement[CritiqueEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None:
        return NOT_PRESENTED
    components = {"reference": evidence.target}
    if evidence.grade is not None:
        components["score"] = evidence.grade
    return Presented(components, preview(evidence.grade_text, MAX_ANSWER_ECHO))
