"""What every task's wire item has, and how a task folder declares its wire side.

Each task folder's ``wire.py`` holds its item model (a subclass of :class:`ItemBase` whose
``task`` field is a ``Literal`` of the task's name) and a :class:`TaskWire` that names it
and, where the task has one, its typed batch route. These modules import nothing of the
service but its names (:mod:`services.domain`): the wire contract
(:mod:`services.contract.protocol`) assembles ``ScoreRequest``'s item union and the typed
requests from them, as :mod:`services.tasks.registry` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from services.domain import Task


# A wire model that refuses fields it does not know. (Comments, not docstrings, on these
# bases: a docstring would become a schema's description.)
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ItemBase(Strict):
    id: str | int | None = Field(None, description="Echoed back in the result.")
    prompt: str = Field("", description="The question the model answered.")
    completion: str = Field(description="The model's output.")


@dataclass(frozen=True, slots=True)
class BatchRoute:
    """A typed shortcut of ``/score`` for one task: its path, the name of its body model
    (``{items: [<item>], options}``, which the contract builds) and its summary."""

    path: str
    body: str
    summary: str


# A training row's task fields, from the row and the trainer's defaults (see TaskWire).
RowFields = Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any] | None]


@dataclass(frozen=True, slots=True)
class TaskWire:
    """A task as the wire contract sees it."""

    name: Task
    item: type[ItemBase]  # its ``task`` field is ``Literal[name]``
    route: BatchRoute | None = None
    # A training row's task fields (all but task, id, prompt and completion), given the
    # row and the trainer's defaults (``language``, ``timeout_s``, ``max_tests``); None:
    # the row gives nothing to judge. None here: the trainer does not train on the task.
    row_fields: RowFields | None = None
