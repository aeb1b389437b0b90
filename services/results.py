"""The edge of the pipeline: a judgement and its reward become the wire ``ScoreResult``.

The verdict and the evidence are the judgement's; the task's presenter (its registry
entry's ``present``) writes the response's ``components`` and ``extracted``, and this module
adds what every result carries. No stage reads a result back.
"""

from __future__ import annotations

import math
from typing import Any

from services.judgement import Judgement
from services.protocol import ScoreResult
from services.rewards.policy import Reward
from services.tasks.entry import NOT_PRESENTED
from services.tasks.registry import entry_of


def to_result(judgement: Judgement[Any], reward: Reward) -> ScoreResult:
    """The response entry of one item."""
    task = judgement.task
    presented = entry_of(task).present(judgement, reward) if task is not None else NOT_PRESENTED
    return ScoreResult(
        index=judgement.index,
        id=judgement.id,
        task=task,
        reward=reward.value,
        status=judgement.status,
        judge=judgement.judge,
        # A component that is not a finite number is left out: JSON has no NaN, and a
        # trainer would read it as null.
        components={k: v for k, v in presented.components.items() if math.isfinite(v)},
        extracted=presented.extracted,
        detail=judgement.detail,
    )
