"""The reward for training a rubric reward model (seed 004's ``data_source == 'grade'``).

The policy writes a graded critique; its grade is read exactly as the seed reads it: the
text after the last "Total Score", with ``:``, ``[``, ``points``, ``point``, ``*``, ``|``
and ``'`` removed, the part before the first ``/``, parsed by Python's ``float``. The
reward is ``(1 - |score - reference|)**2`` with ``score = X/10`` clamped into [0, 1], and
0.0 when no number can be read.

Two departures from the seed, both because the text is the policy's and the reward faces
an optimiser: the seed's ``min(10, X)/10`` bounds the grade only from above, so
``Total Score: -1000/10`` earned ~10^4 (and ``-1e200`` overflowed); here the grade is
clamped on both sides. And a grade that is not a finite number (``nan``, ``inf``, a
thousand-digit number ``float`` reads as ``inf``) is no grade: the seed's ``min(10, nan)``
is 10, a full score for writing ``nan``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from services.rewards.policy import clamp_unit, rubric_reward

_REMOVED = (":", "[", "points", "point", "*", "|", "'")


@dataclass(frozen=True, slots=True)
class GradeReward:
    reward: float
    grade_text: str  # what was handed to float()
    score: float | None  # X/10 clamped into [0, 1], or None when no grade could be read
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
        grade = float(text)
    except ValueError:
        return GradeReward(0.0, text, None, f"no grade can be read from {text[:80]!r}")
    if not math.isfinite(grade):
        # float() reads "nan", "-inf" and numbers past 1.8e308 (as inf): none is a grade.
        return GradeReward(0.0, text, None, f"grade {text[:80]!r} is not a finite number")
    score = clamp_unit(grade / 10.0)
    reward = rubric_reward(score, reference)
    clamped = "" if 0.0 <= grade <= 10.0 else f" (written {text[:40]}, clamped into 0-10)"
    return GradeReward(
        reward, text, score, f"grade {score * 10:g}/10{clamped} against {reference:g}"
    )
