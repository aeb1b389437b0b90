"""The math task on the wire: its item (a completion and its reference answer), and its
typed route ``/score/math``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema, field_validator

from services.codecheck.test_formats import looks_like_test_data
from services.domain import Task
from services.tasks.items import BatchRoute, ItemBase, TaskWire

MAX_REFERENCE_CHARS = 100_000


def reference_text(value: Any) -> Any:
    """A math reference as text. A number is converted exactly, as datasets hold it: an int
    as its digits, a float as its ``repr`` (``0.1`` stays ``"0.1"``). A boolean is not a
    number, and NaN or an infinity is no answer; text passes as it is (the math judge says
    when it holds no answer)."""
    if value is None:
        raise ValueError("the reference is missing (null)")
    if isinstance(value, bool):
        raise ValueError(
            f"the reference is a boolean ({str(value).lower()}), not an answer; "
            "send the answer as text"
        )
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"the reference is {value}, not a finite number")
        return repr(value)
    return value


# A math reference on the wire: text, or a number read as its exact text.
Reference = Annotated[
    str,
    BeforeValidator(reference_text),
    WithJsonSchema(
        {"anyOf": [{"type": "string", "maxLength": MAX_REFERENCE_CHARS}, {"type": "number"}]}
    ),
]


class MathItem(ItemBase):
    task: Literal[Task.MATH] = Task.MATH
    reference: Reference = Field(
        description="Ground-truth final answer: text, or a number (converted exactly: 4 is "
        '"4", 0.1 is "0.1"; a boolean, NaN or an infinity is an error). An empty reference, '
        "one with a control character, or one with no answer in it is an item error.",
        max_length=MAX_REFERENCE_CHARS,
    )

    @field_validator("reference")
    @classmethod
    def _not_code_tests(cls, reference: str) -> str:
        # A verl code row's ground_truth is JSON test data: judging it as a math answer
        # would hand out a plausible-looking reward for the wrong task.
        if looks_like_test_data(reference):
            raise ValueError("the reference is code test data; send the item as task 'code'")
        return reference


def row_fields(row: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any] | None:
    """A training row's math fields: its reference answer, as text."""
    if row.get("reference") is None:
        return None
    return {"reference": str(row["reference"])}


WIRE = TaskWire(
    Task.MATH,
    MathItem,
    BatchRoute("/score/math", "MathScoreRequest", "math items (task optional)"),
    row_fields,
)
