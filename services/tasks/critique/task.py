"""The critique task's registry entry."""

from __future__ import annotations

from services.rewards.policy import GRADED_INTERVAL
from services.tasks.critique.evidence import CritiqueEvidence
from services.tasks.critique.judge import CritiqueJudge
from services.tasks.critique.result import present_critique
from services.tasks.critique.reward import critique_reward
from services.tasks.critique.wire import WIRE
from services.tasks.entry import JudgeParts, TaskEntry
from services.tasks.judging import TaskJudge


def _judge(parts: JudgeParts) -> TaskJudge:
    return CritiqueJudge()


ENTRY: TaskEntry[CritiqueEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=critique_reward,
    present=present_critique,
    interval=lambda policy: GRADED_INTERVAL,
)
