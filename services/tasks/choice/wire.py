"""The choice task on the wire: a completion, the choices it picked from, and the letter of
the right one. No typed route: choice items go to ``/score``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, model_validator

from services.domain import Task
from services.tasks.items import ItemBase, TaskWire

CHOICE = Task.add("choice")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class ChoiceItem(ItemBase):
    task: Literal["choice"]
    reference: str = Field(
        description="The letter of the right choice (A for the first, B for the second, ...; "
        "any case).",
        min_length=1,
        max_length=1,
    )
    choices: list[str] = Field(
        default_factory=list,
        max_length=len(LETTERS),
        description="The choices, in the order their letters name them; optional. When "
        "given, the reference must name one of them.",
    )

    @model_validator(mode="after")
    def _a_letter_of_the_choices(self) -> ChoiceItem:
        letter = self.reference.upper()
        if letter not in LETTERS:
            raise ValueError(f"the reference {self.reference!r} is not a letter A-Z")
        if self.choices and LETTERS.index(letter) >= len(self.choices):
            raise ValueError(
                f"the reference {letter} names no choice: there are {len(self.choices)}"
            )
        self.reference = letter
        return self


def row_fields(row: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any] | None:
    """A training row's choice fields: its reference letter and its choices, if any."""
    if row.get("reference") is None:
        return None
    fields: dict[str, Any] = {"reference": str(row["reference"])}
    if row.get("choices"):
        fields["choices"] = [str(choice) for choice in row["choices"]]
    return fields


WIRE = TaskWire(CHOICE, ChoiceItem, row_fields=row_fields)
