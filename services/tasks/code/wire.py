"""The code task on the wire: its item (a program's completion, its language and tests, in
any dataset's test format), and its typed route ``/score/code``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from services.codecheck.test_formats import to_test_specs
from services.domain import Task
from services.tasks.items import BatchRoute, ItemBase, Strict, TaskWire


class TestSpec(Strict):
    code: str | None = Field(None, description="Test code appended after the solution.")
    stdin: str | None = Field(None, description="Standard input for the program.")
    expected: str | None = Field(None, description="Expected standard output (stripped).")


class CodeItem(ItemBase):
    task: Literal[Task.CODE]
    language: Literal["q", "python"]
    tests: Annotated[list[TestSpec], BeforeValidator(to_test_specs)] = Field(
        min_length=1,
        description="A list of {code?, stdin?, expected?}, or a dataset's own test format, "
        "converted on arrival: verl/PRIME or APPS/TACO inputs/outputs (fn_name for call-based "
        "tests; also as a JSON string or under input_output), LiveCodeBench test cases "
        "(testtype stdin/functional, func_name), HumanEval {test, entry_point}, MBPP assert "
        "lists or {test_list}, KodCode pytest source.",
    )
    max_tests: int | None = Field(
        None,
        ge=1,
        description="Run the first N tests. Default: all of them, up to the server's limit "
        "(VERIFIER_CODE_MAX_TESTS, 64); at most the server's ceiling "
        "(VERIFIER_CODE_MAX_TESTS_CEILING, 512). Tests left out are counted in the result "
        "(tests_not_run) and its detail says why; when the server's limit, not max_tests, "
        "left them out, the item earns no perfect bonus.",
    )
    timeout_s: float | None = Field(None, gt=0, le=60, description="Per-test timeout (default 1).")


def row_tests(tests: Any) -> Any:
    """A row's tests as the item sends them: a list of test objects without empty fields,
    or a code dataset's own test data (verl's ``{"inputs", "outputs"}`` as a dict or a JSON
    string, with ``fn_name`` for call-based items) as it is, which the service converts
    (and refuses with the reason when it cannot be read)."""
    if isinstance(tests, str):
        return tests if tests.strip() else None
    if isinstance(tests, list):
        return [
            {k: v for k, v in test.items() if v is not None} if isinstance(test, dict) else test
            for test in tests
        ]
    return tests


def row_fields(row: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any] | None:
    """A training row's code fields: its language (else the trainer's), its tests, the
    trainer's per-test timeout and, when it sets one, its test limit."""
    tests = row_tests(row.get("tests"))
    if not tests:
        return None
    fields = {
        "language": row.get("language") or defaults.get("language"),
        "tests": tests,
        "timeout_s": defaults.get("timeout_s"),
    }
    if defaults.get("max_tests") is not None:  # else every test, up to the service's limit
        fields["max_tests"] = defaults["max_tests"]
    return fields


WIRE = TaskWire(
    Task.CODE,
    CodeItem,
    BatchRoute("/score/code", "CodeScoreRequest", "code items (task optional)"),
    row_fields,
)
