"""Every task the service scores, by name: the one place the rest of the service, the wire
contract and the routes learn what tasks exist.

A built-in task is a folder under ``services/tasks/`` with a ``wire.py`` (its item model and
typed route: :class:`~services.tasks.items.TaskWire`, named ``WIRE``) and a ``task.py`` (its
judge, reward rule and presenter: :class:`~services.tasks.entry.TaskEntry`, named
``ENTRY``), and one line in :data:`TASKS`. The contract reads only the light ``wire``
modules (a client that imports it loads no judge); the scorer, the LLM stage and the API
read the entries.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import BaseModel, Field, TypeAdapter

from services.domain import Status, Task
from services.rewards.policy import NO_REWARD, Reward, bounded_reward
from services.tasks.items import TaskWire

if TYPE_CHECKING:
    from services.judgement import Judgement
    from services.tasks.entry import TaskEntry
    from services.tasks.policy import ScoringPolicy

# The built-in tasks, one folder each, in the order the contract lists them.
TASKS = ("math", "code", "rubric", "critique", "choice")


def _loaded(name: str, module: str, attribute: str) -> Any:
    Task.add(name)  # a name that is not a built-in member is a value of Task all the same
    return getattr(import_module(f"services.tasks.{name}.{module}"), attribute)


@cache
def wires() -> tuple[TaskWire, ...]:
    """Every task's wire side, in registry order."""
    return tuple(_loaded(name, "wire", "WIRE") for name in TASKS)


@cache
def _entries() -> dict[Task, TaskEntry[Any]]:
    return {Task(name): _loaded(name, "task", "ENTRY") for name in TASKS}


def entry_of(name: Task) -> TaskEntry[Any]:
    return _entries()[name]


def rewarded(judgement: Judgement[Any], policy: ScoringPolicy) -> tuple[Judgement[Any], Reward]:
    """The judgement's reward under ``policy`` by its task's rule, clamped into the task's
    reward interval; the judgement says so where the clamp changed it (an error where the
    value was not a finite number). An item of no task (invalid) earns none."""
    if judgement.task is None:
        return judgement, NO_REWARD
    task = entry_of(judgement.task)
    bounded = bounded_reward(task.reward(judgement, policy), task.reward_interval(policy))
    if bounded.note is None:
        return judgement, bounded.reward
    status = Status.ERROR if bounded.failed else judgement.status
    detail = f"{judgement.detail}; {bounded.note}" if judgement.detail else bounded.note
    return replace(judgement, status=status, detail=detail), bounded.reward


def entries() -> list[TaskEntry[Any]]:
    """The registered tasks, in registry order."""
    return list(_entries().values())


def item_adapter() -> TypeAdapter[Any]:
    """Validates a raw item as the item model its ``task`` field names (a discriminated
    union of the registered tasks' item models)."""
    return _union_of(tuple(wire.item for wire in wires()))


@cache
def _union_of(models: tuple[type[BaseModel], ...]) -> TypeAdapter[Any]:
    union: Any = Union[models]  # noqa: UP007 (a union of types only known at runtime)
    return TypeAdapter(Annotated[union, Field(discriminator="task")])
