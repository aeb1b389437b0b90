"""Score batches: validate each item on its own, judge it, and turn verdicts into rewards.

A ``/score`` item goes through these stages, in this order:

1. validation: the raw item becomes its task's item model, or an 'error' judgement saying
   why;
2. admission: the request's work per bounded backend is admitted, or the whole request is
   refused (:class:`~services.admission.Saturated`, a 429);
3. its task's judge gives a :class:`~services.judgement.Judgement` carrying the task's
   evidence and verdict; judges run concurrently;
4. the LLM stage (:mod:`services.llm_stage`) refines the verdicts of the tasks it applies
   to (math) with the served verifier where the mode asks for it;
5. the task's reward rule gives the reward under the request's
   :class:`~services.tasks.policy.ScoringPolicy` (its options, resolved against the
   server's defaults at the edge), and the reward is clamped into the interval that policy
   defines for the task (a value that is not a finite number never
   becomes a reward: :func:`~services.rewards.policy.bounded_reward`);
6. at the API's edge, :func:`services.api.results.to_result` builds the wire result with
   the task's presenter.

Which tasks exist, and each one's item model, judge, reward rule and presenter, the
scorer learns only from :mod:`services.tasks.registry`.

Nothing an item contains can fail the batch: a malformed item, a pathological answer or an
unavailable backend yields that item's result with an explicit status and a reason, and
every other item is scored as usual.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any, NamedTuple, Protocol, runtime_checkable

from pydantic import ValidationError

from services.admission import Admission, Backend
from services.domain import Status, Task
from services.judgement import Judgement, unjudged
from services.llm_stage import LLMStage
from services.mathcheck.checker import Checker
from services.metrics import Metrics
from services.rewards.policy import Reward
from services.settings import Settings
from services.tasks.entry import JudgeParts
from services.tasks.judging import (
    BatchContext,
    Demanding,
    Entry,
    TaskItem,
    TaskJudge,
    task_of,
)
from services.tasks.policy import ScoringPolicy
from services.tasks.registry import entry_of, item_adapter, rewarded

log = logging.getLogger(__name__)

# Items validated, or results built, between two turns of the event loop: a large batch's
# own work on the loop leaves it to other requests and /health every few milliseconds.
SLICE = 128


def describe_validation_error(error: ValidationError) -> str:
    """'field: reason; field: reason' — the first few problems of an invalid item."""
    parts = []
    for problem in error.errors()[:5]:
        where = ".".join(str(part) for part in problem["loc"]) or "item"
        parts.append(f"{where}: {problem['msg']}")
    return "; ".join(parts)


def parse_item(index: int, raw: Any, only: Task | None) -> Entry | Judgement[Any]:
    """The typed item, or the judgement of an item too malformed to judge."""
    raw_id = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(raw_id, str | int) or isinstance(raw_id, bool):
        raw_id = None
    if only is not None and isinstance(raw, dict):
        raw = {"task": only.value, **raw}
    try:
        item = item_adapter().validate_python(raw)
        if only is not None and task_of(item) is not only:
            raise ValueError(f"this endpoint scores only '{only.value}' items")
    except (ValidationError, ValueError) as exc:
        reason = describe_validation_error(exc) if isinstance(exc, ValidationError) else str(exc)
        return unjudged(index, raw_id, None, Status.ERROR, f"invalid item: {reason}")
    return Entry(index, item)


def _lost(index: int, item: TaskItem | None) -> Judgement[Any]:
    """The judgement of an item its judge returned nothing for (a bug, said so)."""
    task, item_id = (task_of(item), item.id) if item is not None else (None, None)
    reason = "internal error: the item got no verdict"
    return unjudged(index, item_id, task, Status.ERROR, reason)


@runtime_checkable
class PacedDemanding(Protocol):
    """A :class:`~services.tasks.judging.Demanding` judge whose count takes a while for a
    large request, so it gives the event loop turns while it counts."""

    async def paced_demand(self, entries: Sequence[Entry], policy: ScoringPolicy) -> int: ...


class Scored(NamedTuple):
    """One item's final judgement (its verdict and evidence) and its reward."""

    judgement: Judgement[Any]
    reward: Reward


class Scorer:
    def __init__(
        self,
        settings: Settings,
        checker: Checker,
        metrics: Metrics,
        code: TaskJudge | None,
        llm: LLMStage,
        admission: Admission | None = None,
    ) -> None:
        """``code``: the sandboxed code judge (None: code items say it is not enabled);
        ``llm``: the LLM stage, whose client the tasks that need a model (rubric) share;
        ``admission``: None where nothing is refused (the exploit canaries, the CLI)."""
        self._settings = settings
        self._admission = admission
        self._metrics = metrics
        self._llm = llm
        self._parts = JudgeParts(checker, metrics, code, llm.client)
        self._judges: dict[Task, TaskJudge] = {}

    async def score_items(
        self, raw_items: list[Any], policy: ScoringPolicy, *, only: Task | None = None
    ) -> list[Scored]:
        """Every item's final judgement and its reward, in the request's order; ``only``
        restricts the batch to one task (the typed routes), which items may then omit."""
        items, judgements = await self.judge_batch(raw_items, policy, only=only)
        judgements = await self._llm.refine(items, judgements, policy)
        scored = []
        for count, judgement in enumerate(judgements, 1):
            if count % SLICE == 0:
                await asyncio.sleep(0)  # other requests, /health, between slices
            judgement, reward = rewarded(judgement, policy)
            scored.append(Scored(judgement, reward))
            label = judgement.task.value if judgement.task is not None else "invalid"
            self._metrics.items.labels(task=label, status=judgement.status.value).inc()
        return scored

    async def judge_batch(
        self, raw_items: list[Any], policy: ScoringPolicy, *, only: Task | None = None
    ) -> tuple[list[TaskItem | None], list[Judgement[Any]]]:
        """Validate every item and hand each task's items to its judge, all concurrently.

        Returns the typed items (None where one was invalid) and their judgements, in the
        request's order. Raises :class:`~services.admission.Saturated`, before anything is
        judged, when a backend has no room for the request's work.
        """
        budget = self._settings.batch_timeout_s
        deadline = asyncio.get_running_loop().time() + budget
        context = BatchContext(policy, deadline, budget)
        parsed: list[Entry | Judgement[Any]] = []
        for index, raw in enumerate(raw_items):
            parsed.append(parse_item(index, raw, only))
            if index % SLICE == SLICE - 1:
                await asyncio.sleep(0)  # other requests, /health, between slices
        by_task: dict[Task, list[Entry]] = {}
        for entry in parsed:
            if isinstance(entry, Entry):
                by_task.setdefault(entry.task, []).append(entry)
        gate = self._admission
        demand = await self.demand(by_task, policy) if gate else {}
        with gate.admit(demand) if gate else nullcontext():
            judged = await asyncio.gather(
                *(self._judge_task(task, group, context) for task, group in by_task.items())
            )
        judgements = {j.index: j for group in judged for j in group}
        for entry in parsed:
            if isinstance(entry, Judgement):
                judgements[entry.index] = entry
        items = [entry.item if isinstance(entry, Entry) else None for entry in parsed]
        return items, [
            judgements.get(index) or _lost(index, item) for index, item in enumerate(items)
        ]

    async def demand(
        self, by_task: dict[Task, list[Entry]], policy: ScoringPolicy
    ) -> dict[Backend, int]:
        """The work a request's valid items ask of each bounded backend: as the task's judge
        counts it where it can (the code judge leaves out runs its cache holds and repeats
        within the request, a slice of items per turn of the event loop), else as the
        task's entry does (every test a code item takes, one comparison per math item)."""
        units = dict.fromkeys(Backend, 0)
        for task, group in by_task.items():
            entry = entry_of(task)
            if entry.backend is None:
                continue
            judge = self._judge_of(task)
            if isinstance(judge, PacedDemanding):
                units[entry.backend] += await judge.paced_demand(group, policy)
            elif isinstance(judge, Demanding):
                units[entry.backend] += judge.demand(group, policy)
            else:
                units[entry.backend] += sum(entry.demand(e.item) for e in group)
        return units

    def _judge_of(self, task: Task) -> TaskJudge:
        """The task's judge, built from its registry entry the first time it is needed."""
        judge = self._judges.get(task)
        if judge is None:
            judge = self._judges[task] = entry_of(task).judge(self._parts)
        return judge

    async def _judge_task(
        self, task: Task, group: Sequence[Entry], context: BatchContext
    ) -> Sequence[Judgement[Any]]:
        started = time.perf_counter()
        try:
            return await self._judge_of(task).judge(group, context)
        except Exception as exc:  # a bug in one judge must not lose the other tasks' results
            log.exception("judging the %s items failed", task.value)
            reason = f"internal error while scoring: {type(exc).__name__}"
            return [unjudged(e.index, e.item.id, task, Status.ERROR, reason) for e in group]
        finally:
            backend = entry_of(task).backend
            if self._admission is not None and backend is not None:
                self._admission.observe(backend, time.perf_counter() - started)
