"""Seed 004's reward for training a rubric reward model: ``(1 - |grade - target|)**2``,
and 0.0 when no grade could be read from the critique."""

from __future__ import annotations

from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, rubric_reward
from services.tasks.critique.evidence import CritiqueEvidence
from services.tasks.policy import ScoringPolicy


def critique_reward(judgement: Judgement[CritiqueEvidence], policy: ScoringPolicy) -> Reward:
    evidence = judgement.evidence
    if not judgement.judged or evidence is None:
        return NO_REWARD
    if evidence.grade is None:
        return Reward(0.0)
    return Reward(rubric_reward(evidence.grade, evidence.target))
