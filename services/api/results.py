"""The edge of the pipeline: a judgement and its reward become the wire ``ScoreResult``, and
a batch's results the ``ScoreResponse``.

The verdict and the evidence are the judgement's; the task's presenter (its registry
entry's ``present``) writes the response's ``components`` and ``extracted``, and this module
adds what every result carries. No stage reads a result back.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from typing import Any

from services.contract.protocol import BatchSummary, ScoreResponse, ScoreResult
from services.domain import Task
from services.judgement import Judgement
from services.rewards.policy import Reward
from services.scoring import SLICE, Scorer
from services.tasks.entry import NOT_PRESENTED
from services.tasks.policy import ScoringPolicy
from services.tasks.registry import entry_of


async def score_batch(
    scorer: Scorer, raw_items: list[Any], policy: ScoringPolicy, *, only: Task | None = None
) -> ScoreResponse:
    """Score every item and answer with the wire response: one result per item, in order,
    and the batch's summary."""
    started = time.perf_counter()
    results = []
    for count, (judgement, reward) in enumerate(
        await scorer.score_items(raw_items, policy, only=only), 1
    ):
        if count % SLICE == 0:
            await asyncio.sleep(0)  # other requests, /health, between slices
        results.append(to_result(judgement, reward))
    rewards = [r.reward for r in results if r.reward is not None]
    summary = BatchSummary(
        items=len(results),
        by_status=dict(Counter(r.status.value for r in results)),
        mean_reward=sum(rewards) / len(rewards) if rewards else None,
        elapsed_s=round(time.perf_counter() - started, 6),
    )
    return ScoreResponse(results=results, summary=summary)


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
