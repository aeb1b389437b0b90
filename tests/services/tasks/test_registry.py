"""The task registry in-process: what it lists, how it validates items, what it refuses."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pydantic import ValidationError

from services.admission import Backend
from services.protocol import CodeItem, MathItem, Task
from services.tasks.registry import entries, entry_of, item_adapter, register, registered


def test_the_built_in_tasks_in_the_contract_s_order() -> None:
    assert [entry.name for entry in entries()] == [Task.MATH, Task.CODE, Task.RUBRIC, Task.CRITIQUE]
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


def test_a_name_is_registered_once() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(entry_of(Task.MATH))
    renamed = replace(entry_of(Task.CRITIQUE), name=Task.add("critique_again"))
    with registered(renamed):
        with pytest.raises(ValueError, match="already registered"):
            register(renamed)
        assert Task("critique_again") is renamed.name
    assert renamed not in entries()


def test_an_added_name_is_a_task_name_but_not_a_member() -> None:
    added = Task.add("added_here")
    assert Task("added_here") is added and added == "added_here"
    assert added not in list(Task)
    assert Task.add("math") is Task.MATH
    with pytest.raises(ValueError):
        Task("never_added")
