"""The wire contract in-process: the OpenAPI document against its committed snapshot, and
task names added at runtime.

A deliberate change to the contract updates the snapshot (``python -m
tests.services.contract.test_protocol``) and says so in the commit and the docs; an
accidental one fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from services.app import create_app
from services.contract.protocol import (
    TASK_ALIASES,
    GradeRequest,
    ScoreRequest,
    ScoreResult,
    Status,
    Task,
)
from services.settings import Settings
from services.tasks.critique.wire import CritiqueItem
from services.tasks.math.wire import MathItem

SNAPSHOT = Path(__file__).with_name("openapi.json")


def _document() -> dict[str, Any]:
    spec = create_app(Settings()).openapi()
    # The version is the installed distribution's, not part of the contract.
    return {**spec, "info": {**spec["info"], "version": "*"}}


def _text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def test_the_openapi_document_is_the_committed_contract() -> None:
    assert _text(_document()) == SNAPSHOT.read_text(), (
        "the OpenAPI document changed: if deliberate, run "
        "`python -m tests.services.contract.test_protocol` and document the change"
    )


def test_a_task_added_at_runtime_is_a_task_name_on_the_wire_but_not_in_the_document() -> None:
    added = Task.add("wire_test_task")
    result = ScoreResult(
        index=0, task="wire_test_task", reward=None, status=Status.OK, judge="none"
    )
    assert result.task is added
    assert json.loads(result.model_dump_json())["task"] == "wire_test_task"
    assert "wire_test_task" not in json.dumps(_document())
    with pytest.raises(ValueError):
        ScoreResult(index=0, task="never_added", reward=None, status=Status.OK, judge="none")


def test_a_former_task_name_is_read_as_the_task_it_names_now() -> None:
    # 'grade' was the critique task's name; /grade (one math answer) is another thing.
    assert TASK_ALIASES == {"grade": Task.CRITIQUE}
    assert Task("grade") is Task.CRITIQUE and Task.add("grade") is Task.CRITIQUE
    request = ScoreRequest.model_validate_json(
        '{"items": [{"task": "grade", "completion": "Total Score: 6/10", "reference": 0.6}]}'
    )
    (item,) = request.items
    assert isinstance(item, CritiqueItem) and item.task is Task.CRITIQUE
    assert json.loads(item.model_dump_json())["task"] == "critique"
    result = ScoreResult(index=0, task="grade", reward=1.0, status=Status.OK, judge="rule")
    assert json.loads(result.model_dump_json())["task"] == "critique"
    # The document lists the former name as an accepted value, and no task of that name.
    schemas = _document()["components"]["schemas"]
    assert schemas["CritiqueItem"]["properties"]["task"]["enum"] == ["critique", "grade"]
    assert "grade" not in schemas["Task"]["enum"]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (4, "4"),
        (-17, "-17"),
        (123456789012345678901234567890, "123456789012345678901234567890"),
        (0.1, "0.1"),  # its repr, not its binary value 0.1000000000000000055511...
        (2.0, "2.0"),
        (1e-05, "1e-05"),
        (" 4 ", " 4 "),
    ],
)
def test_a_number_is_a_reference_converted_exactly(value: object, text: str) -> None:
    assert MathItem.model_validate({"completion": "", "reference": value}).reference == text
    assert GradeRequest.model_validate({"answer": "", "reference": value}).reference == text


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (True, "the reference is a boolean (true), not an answer"),
        (False, "the reference is a boolean (false), not an answer"),
        (float("nan"), "the reference is nan, not a finite number"),
        (float("-inf"), "the reference is -inf, not a finite number"),
        (None, "the reference is missing (null)"),
        ([4], "Input should be a valid string"),
    ],
)
def test_a_boolean_nan_or_infinity_is_no_reference(value: object, reason: str) -> None:
    for model, fields in ((MathItem, {"completion": ""}), (GradeRequest, {"answer": ""})):
        with pytest.raises(ValidationError, match=re.escape(reason)):
            model.model_validate({**fields, "reference": value})


if __name__ == "__main__":
    SNAPSHOT.write_text(_text(_document()))
    print(f"wrote {SNAPSHOT}")
