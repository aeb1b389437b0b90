"""Score batches: validate each item on its own, judge it, and turn verdicts into rewards.

A ``/score`` item goes through these stages, in this order:

1. validation: the raw item becomes a typed item, or an 'error' judgement saying why;
2. its task's judge (math, code, grade or rubric, from a registry keyed by task) gives an
   :class:`~services.judgement.ItemJudgement`; judges run concurrently;
3. the LLM stage (:mod:`services.llm_stage`) refines math judgements with the served
   verifier where the mode asks for it;
4. the request's :class:`~services.rewards.policy.RewardPolicy` gives the reward;
5. :func:`services.results.to_result` builds the wire result.

Nothing an item contains can fail the batch: a malformed item, a pathological answer or an
unavailable backend yields that item's result with an explicit status and a reason, and
every other item is scored as usual.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from pydantic import TypeAdapter, ValidationError

from services.admission import Admission, Backend
from services.codecheck.scorer import DEFAULT_MAX_TESTS, CodeScorer
from services.judgement import ItemJudgement, unjudged
from services.judges.base import BatchContext, Entry, TaskJudge, Unavailable
from services.judges.grade_judge import GradeJudge
from services.judges.math_judge import MathJudge
from services.judges.rubric_judge import RubricJudge
from services.llm_stage import LLMStage
from services.mathcheck.checker import MathChecker
from services.metrics import Metrics
from services.protocol import (
    AnyItem,
    BatchSummary,
    CodeItem,
    RewardOptions,
    ScoreItem,
    ScoreResponse,
    Status,
    Task,
)
from services.results import to_result
from services.rewards.policy import RewardPolicy
from services.settings import Settings

log = logging.getLogger(__name__)

_ANY_ITEM: TypeAdapter[AnyItem] = TypeAdapter(ScoreItem)
CODE_DISABLED = "code execution is not enabled on this server"


def describe_validation_error(error: ValidationError) -> str:
    """'field: reason; field: reason' — the first few problems of an invalid item."""
    parts = []
    for problem in error.errors()[:5]:
        where = ".".join(str(part) for part in problem["loc"]) or "item"
        parts.append(f"{where}: {problem['msg']}")
    return "; ".join(parts)


def parse_item(index: int, raw: Any, only: Task | None) -> Entry | ItemJudgement:
    """The typed item, or the judgement of an item too malformed to judge."""
    item_id = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(item_id, str | int) or isinstance(item_id, bool):
        item_id = None
    if only is not None and isinstance(raw, dict):
        raw = {"task": only.value, **raw}
    try:
        item = _ANY_ITEM.validate_python(raw)
        if only is not None and item.task is not only:
            raise ValueError(f"this endpoint scores only '{only.value}' items")
    except (ValidationError, ValueError) as exc:
        reason = describe_validation_error(exc) if isinstance(exc, ValidationError) else str(exc)
        return unjudged(index, item_id, None, Status.ERROR, f"invalid item: {reason}")
    return Entry(index, item)


def demand(entries: Sequence[Entry]) -> dict[Backend, int]:
    """The work a request's valid items ask of each bounded backend: every test a code item
    runs, one comparison per math item."""
    units = dict.fromkeys(Backend, 0)
    for entry in entries:
        item = entry.item
        if isinstance(item, CodeItem):
            units[Backend.SANDBOX] += len(item.tests[: item.max_tests or DEFAULT_MAX_TESTS])
        elif item.task is Task.MATH:
            units[Backend.MATH] += 1
    return units


# The backend whose time a task's judge measures.
_BACKEND_OF = {Task.CODE: Backend.SANDBOX, Task.MATH: Backend.MATH}


def _lost(index: int, item: AnyItem | None) -> ItemJudgement:
    """The judgement of an item its judge returned nothing for (a bug, said so)."""
    task, item_id = (item.task, item.id) if item is not None else (None, None)
    return unjudged(index, item_id, task, Status.ERROR, "internal error: the item got no verdict")


class Scorer:
    def __init__(
        self,
        settings: Settings,
        checker: MathChecker,
        metrics: Metrics,
        code: CodeScorer | None = None,
        llm: LLMStage | None = None,
        admission: Admission | None = None,
    ) -> None:
        self._settings = settings
        # None: nothing is refused (the exploit canaries, the CLI).
        self._admission = admission
        self._metrics = metrics
        self._llm = llm or LLMStage(None, settings.mode, metrics)
        self._judges: dict[Task, TaskJudge] = {
            Task.MATH: MathJudge(checker, settings.extraction, settings.answer_after_reasoning),
            Task.CODE: code if code is not None else Unavailable(CODE_DISABLED),
            Task.GRADE: GradeJudge(),
            Task.RUBRIC: RubricJudge(self._llm.client, metrics),
        }

    async def score_batch(
        self, raw_items: list[Any], options: RewardOptions, *, only: Task | None = None
    ) -> ScoreResponse:
        """Score every item; ``only`` restricts the batch to one task (the typed routes),
        which items may then omit."""
        started = time.perf_counter()
        policy = RewardPolicy.from_options(options)
        items, judgements = await self.judge_batch(raw_items, options, only=only)
        judgements = await self._llm.refine(items, judgements, options, policy)
        results = [to_result(j, policy.reward(j)) for j in judgements]
        for result in results:
            task = result.task.value if result.task is not None else "invalid"
            self._metrics.items.labels(task=task, status=result.status.value).inc()
        rewards = [r.reward for r in results if r.reward is not None]
        summary = BatchSummary(
            items=len(results),
            by_status=dict(Counter(r.status.value for r in results)),
            mean_reward=sum(rewards) / len(rewards) if rewards else None,
            elapsed_s=round(time.perf_counter() - started, 6),
        )
        return ScoreResponse(results=results, summary=summary)

    async def judge_batch(
        self, raw_items: list[Any], options: RewardOptions, *, only: Task | None = None
    ) -> tuple[list[AnyItem | None], list[ItemJudgement]]:
        """Validate every item and hand each task's items to its judge, all concurrently.

        Returns the typed items (None where one was invalid) and their judgements, in the
        request's order. Raises :class:`~services.admission.Saturated`, before anything is
        judged, when a backend has no room for the request's work.
        """
        budget = self._settings.batch_timeout_s
        deadline = asyncio.get_running_loop().time() + budget
        context = BatchContext(options, deadline, budget)
        parsed = [parse_item(index, raw, only) for index, raw in enumerate(raw_items)]
        by_task: dict[Task, list[Entry]] = {}
        for entry in parsed:
            if isinstance(entry, Entry):
                by_task.setdefault(entry.item.task, []).append(entry)
        valid = [entry for entry in parsed if isinstance(entry, Entry)]
        with self._admission.admit(demand(valid)) if self._admission else nullcontext():
            judged = await asyncio.gather(
                *(self._judge_task(task, entries, context) for task, entries in by_task.items())
            )
        judgements = {j.index: j for group in judged for j in group}
        for entry in parsed:
            if isinstance(entry, ItemJudgement):
                judgements[entry.index] = entry
        items = [entry.item if isinstance(entry, Entry) else None for entry in parsed]
        return items, [
            judgements.get(index) or _lost(index, item) for index, item in enumerate(items)
        ]

    async def _judge_task(
        self, task: Task, entries: Sequence[Entry], context: BatchContext
    ) -> list[ItemJudgement]:
        started = time.perf_counter()
        try:
            return await self._judges[task].judge(entries, context)
        except Exception as exc:  # a bug in one judge must not lose the other tasks' results
            log.exception("judging the %s items failed", task.value)
            reason = f"internal error while scoring: {type(exc).__name__}"
            return [unjudged(e.index, e.item.id, task, Status.ERROR, reason) for e in entries]
        finally:
            backend = _BACKEND_OF.get(task)
            if self._admission is not None and backend is not None:
                self._admission.observe(backend, time.perf_counter() - started)
