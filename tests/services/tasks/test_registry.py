"""The task registry in-process: what it lists, how it validates items, what it refuses."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.admission import Backend
from services.contract.protocol import Task
from services.tasks.code.wire import CodeItem
from services.tasks.math.wire import MathItem
from services.tasks.registry import TASKS, entries, entry_of, item_adapter, wires


def test_the_built_in_tasks_in_the_contract_s_order() -> None:
    built_in = [Task.MATH, Task.CODE, Task.RUBRIC, Task.CRITIQUE, Task("choice")]
    assert [entry.name for entry in entries()] == built_in
    assert [e.route.path for e in entries() if e.route is not None] == [
        "/score/math",
        "/score/code",
        "/score/rubric",
    ]
    assert entry_of(Task.MATH).verification is not None
    assert entry_of(Task.CODE).verification is None


def test_items_are_validated_by_the_model_their_task_names() -> None:
    adapter = item_adapter()
    assert isinstance(
        adapter.validate_python({"task": "math", "completion": "x", "reference": "1"}), MathItem
    )
    code = {"task": "code", "language": "python", "completion": "x", "tests": [{"expected": "1"}]}
    assert isinstance(adapter.validate_python(code), CodeItem)
    with pytest.raises(ValidationError, match="does not match any of the expected tags"):
        adapter.validate_python({"task": "poetry", "completion": "x"})
    with pytest.raises(ValidationError, match=r"math\.reference"):
        adapter.validate_python({"task": "math", "completion": "x"})


def test_the_backends_the_tasks_load() -> None:
    math, code = entry_of(Task.MATH), entry_of(Task.CODE)
    item = CodeItem.model_validate(
        {"task": "code", "language": "python", "completion": "x", "tests": [{"expected": "1"}] * 9}
    )
    assert (code.backend, code.demand(item)) == (Backend.SANDBOX, 9)  # every test runs
    first_three = item.model_copy(update={"max_tests": 3})
    assert code.demand(first_three) == 3
    assert (math.backend, entry_of(Task.CRITIQUE).backend) == (Backend.MATH, None)


def test_each_registry_line_is_a_folder_with_its_wire_and_its_entry() -> None:
    assert [wire.name for wire in wires()] == [Task(name) for name in TASKS]
    for name, wire, entry in zip(TASKS, wires(), entries(), strict=True):
        assert entry.wire is wire
        assert wire.item.__module__ == f"services.tasks.{name}.wire"
        assert entry.judge.__module__ == f"services.tasks.{name}.task"


def test_an_added_name_is_a_task_name_but_not_a_member() -> None:
    added = Task.add("added_here")
    assert Task("added_here") is added and added == "added_here"
    assert added not in list(Task)
    assert Task.add("math") is Task.MATH
    with pytest.raises(ValueError):
        Task("never_added")
