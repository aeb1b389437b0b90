"""The critique task on the wire: its item (the policy's own graded critique and the target
score). No typed route: critique items go to ``/score``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, field_validator

from services.domain import Task
from services.tasks.items import ItemBase, TaskWire


class CritiqueItem(ItemBase):
    """Training a rubric reward model: the completion is the policy's own graded critique.
    'grade' is accepted as the task's former name; results name the task 'critique'."""

    task: Literal[Task.CRITIQUE, "grade"]
    reference: float = Field(ge=0.0, le=1.0, description="Target score in [0, 1].")

    @field_validator("task")
    @classmethod
    def _canonical_name(cls, task: str) -> Task:
        return Task(task)


def row_fields(row: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any] | None:
    """A training row's critique fields: its target score."""
    if row.get("reference") is None:
        return None
    return {"reference": float(row["reference"])}


WIRE = TaskWire(Task.CRITIQUE, CritiqueItem, row_fields=row_fields)
