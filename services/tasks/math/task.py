"""The math task's registry entry."""

from __future__ import annotations

from services.admission import Backend
from services.protocol import MathItem, MathScoreRequest, Task
from services.tasks.entry import BatchRoute, JudgeParts, TaskEntry
from services.tasks.judging import TaskJudge
from services.tasks.math.evidence import MathEvidence
from services.tasks.math.judge import MathJudge
from services.tasks.math.result import present_math
from services.tasks.math.reward import math_reward
from services.tasks.math.verification import MathVerification


def _judge(parts: JudgeParts) -> TaskJudge:
    settings = parts.settings
    return MathJudge(parts.checker, settings.extraction, settings.answer_after_reasoning)


def _one_comparison(item: MathItem) -> int:
    return 1


MATH: TaskEntry[MathEvidence] = TaskEntry(
    name=Task.MATH,
    item=MathItem,
    judge=_judge,
    reward=math_reward,
    present=present_math,
    route=BatchRoute("/score/math", MathScoreRequest, "math items (task optional)"),
    backend=Backend.MATH,
    demand=_one_comparison,
    verification=MathVerification(),
)
