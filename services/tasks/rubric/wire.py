"""The rubric task on the wire: its item (a response, its rubric and target score), and its
typed route ``/score/rubric``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from services.domain import Task
from services.tasks.items import BatchRoute, ItemBase, TaskWire


class RubricItem(ItemBase):
    task: Literal[Task.RUBRIC]
    reference: float = Field(ge=0.0, le=1.0, description="Target score in [0, 1].")
    rubric: str = Field("", description="Optional grading criteria shown to the grader.")


WIRE = TaskWire(
    Task.RUBRIC,
    RubricItem,
    BatchRoute("/score/rubric", "RubricScoreRequest", "rubric items (task optional)"),
)
