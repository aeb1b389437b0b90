"""Every task the service scores, by name: the one place the rest of the service learns
what tasks exist.

The scorer validates an item with its task's item model, builds each task's judge, asks its
reward rule and its presenter; the LLM stage asks its verification hooks; the API adds its
typed route. Adding a task is one folder under ``services/tasks/`` with a
:class:`~services.tasks.entry.TaskEntry`, and one line here (or one :func:`register` call).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Annotated, Any, Union

from pydantic import BaseModel, Field, TypeAdapter

from services.protocol import Task
from services.tasks.code.task import CODE
from services.tasks.critique.task import CRITIQUE
from services.tasks.entry import TaskEntry
from services.tasks.math.task import MATH
from services.tasks.rubric.task import RUBRIC

_TASKS: dict[Task, TaskEntry[Any]] = {}


def register(entry: TaskEntry[Any]) -> None:
    """Add a task; a name already registered is refused."""
    if entry.name in _TASKS:
        raise ValueError(f"task {entry.name.value!r} is already registered")
    _TASKS[entry.name] = entry


def unregister(name: Task) -> None:
    _TASKS.pop(name, None)


@contextmanager
def registered(entry: TaskEntry[Any]) -> Iterator[TaskEntry[Any]]:
    """``entry`` registered for the duration of the block."""
    register(entry)
    try:
        yield entry
    finally:
        unregister(entry.name)


def entry_of(name: Task) -> TaskEntry[Any]:
    return _TASKS[name]


def entries() -> list[TaskEntry[Any]]:
    """The registered tasks, in the order they were registered."""
    return list(_TASKS.values())


def item_adapter() -> TypeAdapter[Any]:
    """Validates a raw item as the item model its ``task`` field names (a discriminated
    union of the registered tasks' item models)."""
    return _union_of(tuple(entry.item for entry in _TASKS.values()))


@lru_cache(maxsize=8)
def _union_of(models: tuple[type[BaseModel], ...]) -> TypeAdapter[Any]:
    union: Any = Union[models]  # noqa: UP007 (a union of types only known at runtime)
    return TypeAdapter(Annotated[union, Field(discriminator="task")])


for _entry in (MATH, CODE, RUBRIC, CRITIQUE):
    register(_entry)
