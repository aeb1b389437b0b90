"""The reward for training a rubric reward model (seed 004's ``data_source == 'grade'``).

The policy writes a graded critique; its grade is read exactly as the seed reads it: the
text after the last "Total Score", with ``:``, ``[``, ``points``, ``point``, ``*``, ``|``
and ``'`` removed, the part before the first ``/``, parsed by Python's ``float``. The
reward is ``(1 - |min(10, X)/10 - reference|)**2``, and 0.0 when no number can be read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from services.rewards.policy import rubric_reward

_REMOVED = (":", "[", "points", "point", "*", "|", "'")


@dataclass(frozen=True, slots=True)
class GradeReward:
    reward: float
    grade_text: str  # what was handed to float()
    score: float | None  # min(10, X)/10, or None when the grade could not be read
    reason: str


def grade_text(completion: str) -> str:
    """The seed's grade string: after the last "Total Score", cleaned, before the first '/'."""
    text = completion.split("Total Score")[-1]
    for removed in _REMOVED:
        text = text.replace(removed, "")
    return text.split("/")[0].strip()


def read_grade(completion: str, reference: float) -> GradeReward:
    text = grade_text(completion)
    try:
        score = min(10.0, float(text)) / 10.0
    except ValueError:
        return GradeReward(0.0, text, None, f"no grade can be read from {text[:80]!r}")
    reward = rubric_reward(score, reference)
    if not math.isfinite(reward):
        # float() reads "-inf": the seed's formula then gives inf, which no trainer can use.
        return GradeReward(0.0, text, None, f"grade {text[:80]!r} is not a finite number")
    return GradeReward(reward, text, score, f"grade {score * 10:g}/10 against {reference:g}")
