"""The math task's registry entry."""

from __future__ import annotations

from services.admission import Backend
from services.judgement import Judgement
from services.tasks.entry import JudgeParts, TaskEntry
from services.tasks.judging import TaskJudge
from services.tasks.math.evidence import MathEvidence
from services.tasks.math.judge import MathJudge
from services.tasks.math.result import present_math
from services.tasks.math.reward import math_interval, math_reward
from services.tasks.math.verification import MathVerification
from services.tasks.math.wire import WIRE, MathItem


def _judge(parts: JudgeParts) -> TaskJudge:
    return MathJudge(parts.checker)


def _one_comparison(item: MathItem) -> int:
    return 1


def _score(judgement: Judgement[MathEvidence]) -> float:
    """The verifier's score where it judged the answer, else the rule verdict."""
    evidence = judgement.evidence
    if evidence is not None and evidence.verifier is not None:
        return evidence.verifier.score
    return 1.0 if judgement.correct else 0.0


def _no_answer(judgement: Judgement[MathEvidence]) -> bool:
    return judgement.evidence is not None and judgement.evidence.answer is None


ENTRY: TaskEntry[MathEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=math_reward,
    present=present_math,
    backend=Backend.MATH,
    demand=_one_comparison,
    verification=MathVerification(),
    interval=math_interval,
    score=_score,
    no_answer=_no_answer,
)
