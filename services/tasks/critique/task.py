"""The critique task's reward rule (seed 004's ``(1 - |grade - target|)**2``, 0.0 when no
grade could be read), its wire components (the target, the grade read and the text it was
read from) and its registry entry."""

from __future__ import annotations

from services.echo import MAX_ANSWER_ECHO, preview
from services.judgement import Judgement
from services.rewards.policy import GRADED_INTERVAL, NO_REWARD, Reward, rubric_reward
from services.tasks.critique.judge import CritiqueEvidence, CritiqueJudge
from services.tasks.critique.wire import WIRE
from services.tasks.entry import NOT_PRESENTED, JudgeParts, Presented, TaskEntry
from services.tasks.judging import TaskJudge
from services.tasks.policy import ScoringPolicy


def critique_reward(judgement: Judgement[CritiqueEvidence], policy: ScoringPolicy) -> Reward:
    evidence = judgement.evidence
    if not judgement.judged or evidence is None:
        return NO_REWARD
    if evidence.grade is None:
        return Reward(0.0)
    return Reward(rubric_reward(evidence.grade, evidence.target))


def present_critique(judgement: Judgement[CritiqueEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None:
        return NOT_PRESENTED
    components = {"reference": evidence.target}
    if evidence.grade is not None:
        components["score"] = evidence.grade
    return Presented(components, preview(evidence.grade_text, MAX_ANSWER_ECHO))


def _judge(parts: JudgeParts) -> TaskJudge:
    return CritiqueJudge()


ENTRY: TaskEntry[CritiqueEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=critique_reward,
    present=present_critique,
    interval=lambda policy: GRADED_INTERVAL,
)
