"""What a task's judge is, and the per-item isolation the rule judges share.

The scorer groups a batch's valid items by task and hands each group to that task's judge
(built from the task's registry entry). A judge returns one
:class:`~services.judgement.Judgement` per item, in any order (each carries its index).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from services.domain import Status, Task
from services.judgement import Judgement, unjudged
from services.tasks.policy import ScoringPolicy

log = logging.getLogger(__name__)

JudgementT = TypeVar("JudgementT", bound=Judgement[Any])


class TaskItem(Protocol):
    """What every task's item model has (each task's item model)."""

    @property
    def task(self) -> str: ...  # its task's name (a Literal of it)

    @property
    def id(self) -> str | int | None: ...

    @property
    def prompt(self) -> str: ...

    @property
    def completion(self) -> str: ...


ItemT = TypeVar("ItemT", bound=TaskItem)


@dataclass(frozen=True, slots=True)
class Entry:
    """A valid item and its position in the request."""

    index: int
    item: TaskItem  # the item model of its task (services.tasks.registry)

    @property
    def task(self) -> Task:
        return task_of(self.item)


@dataclass(frozen=True, slots=True)
class BatchContext:
    """What every judge of one request shares."""

    policy: ScoringPolicy
    deadline: float  # event-loop time by which rule verdicts must be in
    budget_s: float  # the batch time budget the deadline came from


class TaskJudge(Protocol):
    async def judge(
        self, entries: Sequence[Entry], context: BatchContext
    ) -> Sequence[Judgement[Any]]: ...


@runtime_checkable
class Demanding(Protocol):
    """A judge that counts its items' work on its backend better than its task's entry
    can: what its caches will answer, and repeats within a request, cost nothing."""

    def demand(self, entries: Sequence[Entry], policy: ScoringPolicy) -> int: ...


def task_of(item: TaskItem) -> Task:
    """The task an item model names in its ``task`` field."""
    return Task(item.task)


def items_of(entries: Sequence[Entry], item_type: type[ItemT]) -> list[ItemT]:
    """The entries' items, which the registry guarantees are all of ``item_type``."""
    items = [entry.item for entry in entries]
    checked = [item for item in items if isinstance(item, item_type)]
    if len(checked) != len(items):
        raise TypeError(f"a {item_type.__name__} judge was handed another task's item")
    return checked


async def judge_each(
    entries: Sequence[Entry],
    context: BatchContext,
    item_type: type[ItemT],
    judge_one: Callable[[int, ItemT], Awaitable[JudgementT]],
) -> list[JudgementT | Judgement[Any]]:
    """Judge items concurrently, each within the batch deadline; a failure stays its own.

    An item still unjudged at the deadline gets status 'timeout', and an exception while
    judging one item (a bug) gets status 'error': every other item is judged as usual.
    """

    async def one(index: int, item: ItemT) -> JudgementT | Judgement[Any]:
        try:
            async with asyncio.timeout_at(context.deadline):
                return await judge_one(index, item)
        except TimeoutError:
            reason = (
                f"batch time budget of {context.budget_s:g}s exhausted before this item was judged"
            )
            return unjudged(index, item.id, task_of(item), Status.TIMEOUT, reason)
        except Exception as exc:  # a bug in one judge must not lose the other results
            log.exception("scoring item %d failed", index)
            reason = f"internal error while scoring: {type(exc).__name__}"
            return unjudged(index, item.id, task_of(item), Status.ERROR, reason)

    items = items_of(entries, item_type)
    return list(
        await asyncio.gather(*(one(e.index, item) for e, item in zip(entries, items, strict=True)))
    )


class Unavailable:
    """The judge of a task this server cannot run: every item says why."""

    def __init__(self, reason: str) -> None:
        self._reason = reason

    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        return [
            unjudged(e.index, e.item.id, e.task, Status.UNAVAILABLE, self._reason) for e in entries
        ]
