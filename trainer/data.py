"""Load a training set (JSON, JSONL, Parquet) into the rows the GRPO trainer consumes.

Each output row has ``prompt`` (chat messages or rendered text) plus the columns the
reward needs; TRL passes every column but ``prompt`` to reward functions as keyword
arguments, one value per completion:
- math: ``task``, ``reference``;
- critique: ``task``, ``reference`` (the target score);
- code: ``task``, ``language``, ``tests`` (a list of ``{code, stdin, expected}``).

Code rows may hold their tests in a code dataset's own format, converted here as the
service converts a code item's tests (the contract's ``to_test_specs``): verl's
``ground_truth`` (``{"inputs": [...], "outputs": [...]}``, with ``fn_name`` for
call-based items, as a dict or a JSON string, at the row's top level or under
``reward_model``), APPS, LiveCodeBench, HumanEval, MBPP and KodCode tests. A question
given as chat messages (verl's ``prompt``) is the last user message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from services.contract.protocol import reference_text, to_test_specs
from trainer.config import DataSection, RewardSection
from trainer.prompts import ChatTemplating, build_messages, render_prompt

if TYPE_CHECKING:
    from datasets import Dataset

# Default field names per (task, language): the layouts of the datasets this project targets.
_QUESTION_FIELD = {"math": "question", "q": "problem_description", "python": "prompt"}
_TESTS_FIELD = {"q": "test_cases", "python": "tests"}
_TEST_CODE_FIELD = {"q": "q_test_code", "python": "code"}
_TEST_EXPECTED_FIELD = {"q": "q_expected_output", "python": "expected"}


class DataError(ValueError):
    """A row or file that cannot become a training example; says which and why."""


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """All rows of a .json (a list, or an object holding one list), .jsonl or .parquet file."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        rows = []
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise DataError(f"{path}:{number}: invalid JSON: {exc}") from exc
        return rows
    if suffix == ".json":
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            lists = [value for value in loaded.values() if isinstance(value, list)]
            if len(lists) != 1:
                raise DataError(f"{path}: a JSON object must hold exactly one list of rows")
            loaded = lists[0]
        if not isinstance(loaded, list):
            raise DataError(f"{path}: expected a list of rows")
        return loaded
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        table_rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
        return table_rows
    raise DataError(f"{path}: unsupported file type {suffix!r} (use .json, .jsonl or .parquet)")


def _field(row: dict[str, Any], name: str, where: str) -> Any:
    if name not in row or row[name] is None:
        raise DataError(f"{where}: missing field {name!r} (fields: {sorted(row)})")
    return row[name]


def _reference(value: Any, where: str) -> str:
    """A math reference as the service reads one: a number converted exactly (0.1 stays
    "0.1"); a boolean, NaN or an infinity is no answer, so the row is refused here."""
    try:
        text = reference_text(value)
    except ValueError as exc:
        raise DataError(f"{where}: {exc}") from None
    return str(text)


def _as_text(value: Any) -> str | None:
    return None if value is None else str(value)


def question_text(value: Any, where: str) -> str:
    """The question of a row: text, or the last user message of chat messages (verl)."""
    if isinstance(value, list):
        users = [m for m in value if isinstance(m, dict) and m.get("role") == "user"]
        if not users:
            raise DataError(f"{where}: the prompt's messages hold no user message")
        return str(users[-1].get("content", ""))
    return str(value)


def _tests_value(row: dict[str, Any], name: str, explicit: bool, where: str) -> Any:
    """The row's test data: ``name``, else (unless the field was set) verl's ground_truth."""
    if explicit or row.get(name) is not None:
        return _field(row, name, where)
    if row.get("ground_truth") is not None:
        return row["ground_truth"]
    nested = row.get("reward_model")
    if isinstance(nested, dict) and nested.get("ground_truth") is not None:
        return nested["ground_truth"]
    raise DataError(
        f"{where}: missing field {name!r} (or verl's ground_truth) (fields: {sorted(row)})"
    )


def _first_present(test: dict[str, Any], name: str, native: str) -> str | None:
    """A test's field under its configured name, else under the native one."""
    return _as_text(test.get(name) if name in test else test.get(native))


def reward_columns(
    row: dict[str, Any], data: DataSection, reward: RewardSection, where: str
) -> tuple[str, dict[str, Any]]:
    """The question and the reward columns of one source row."""
    key = "math" if reward.task in ("math", "critique") else reward.language
    question = question_text(_field(row, data.question_field or _QUESTION_FIELD[key], where), where)
    if reward.task == "math":
        reference = _reference(_field(row, data.answer_field, where), where)
        return question, {"task": "math", "reference": reference}
    if reward.task == "critique":
        target = _field(row, data.answer_field, where)
        try:
            return question, {"task": "critique", "reference": float(target)}
        except (TypeError, ValueError):
            raise DataError(f"{where}: a critique target must be a number in [0, 1]") from None
    name = data.tests_field or _TESTS_FIELD[key]
    raw = _tests_value(row, name, data.tests_field is not None, where)
    try:
        tests_raw = to_test_specs(raw)
    except ValueError as exc:  # the contract's TestFormatError: the message says why
        raise DataError(f"{where}: {exc}") from None
    if not isinstance(tests_raw, list) or not tests_raw:
        raise DataError(
            f"{where}: tests must be a non-empty list or a code dataset's test data "
            "(verl's {inputs, outputs}, APPS, LiveCodeBench, HumanEval, MBPP, KodCode)"
        )
    code_field = data.test_code_field or _TEST_CODE_FIELD[key]
    expected_field = data.test_expected_field or _TEST_EXPECTED_FIELD[key]
    tests = []
    for test in tests_raw:
        if not isinstance(test, dict):
            raise DataError(f"{where}: each test must be an object, got {test!r}")
        spec = {
            "code": _first_present(test, code_field, "code"),
            "stdin": _as_text(test.get(data.test_stdin_field)),
            "expected": _first_present(test, expected_field, "expected"),
        }
        if spec["code"] is None and spec["stdin"] is None:
            raise DataError(f"{where}: a test needs {code_field!r} or {data.test_stdin_field!r}")
        tests.append(spec)
    return question, {"task": "code", "language": reward.language, "tests": tests}


def build_examples(
    rows: list[dict[str, Any]],
    data: DataSection,
    reward: RewardSection,
    tokenizer: ChatTemplating | None = None,
) -> list[dict[str, Any]]:
    """Rows -> ``{prompt, task, …}`` examples; ``tokenizer`` is needed for text prompts."""
    if data.max_samples is not None:
        rows = rows[: data.max_samples]
    if not data.conversational and tokenizer is None:
        raise ValueError("plain-text prompts (conversational: false) need the tokenizer")
    examples = []
    for index, row in enumerate(rows):
        question, columns = reward_columns(row, data, reward, f"{data.path} row {index}")
        messages = build_messages(
            question,
            task=reward.task,
            language=reward.language,
            reasoning_format=data.reasoning_format,
            system_prompt=data.system_prompt,
            examples=[(example.question, example.answer) for example in data.examples],
        )
        prompt: Any = messages
        if not data.conversational and tokenizer is not None:
            prompt = render_prompt(messages, tokenizer)
        examples.append({"prompt": prompt, **columns})
    if not examples:
        raise DataError(f"{data.path}: no rows")
    return examples


# Relative paths that do not exist from the working directory are tried from the repository
# root, so the bundled demo set is found wherever grpo-train is started.
_REPO_ROOT = Path(__file__).resolve().parents[1]


def locate(path: str | Path) -> Path:
    path = Path(path)
    if path.exists() or path.is_absolute():
        return path
    bundled = _REPO_ROOT / path
    return bundled if bundled.exists() else path


def load_examples(
    data: DataSection, reward: RewardSection, tokenizer: ChatTemplating | None = None
) -> list[dict[str, Any]]:
    """The rows of ``data.path`` as ``{prompt, task, …}`` examples."""
    return build_examples(read_rows(locate(data.path)), data, reward, tokenizer)


def load_dataset(
    data: DataSection, reward: RewardSection, tokenizer: ChatTemplating | None = None
) -> Dataset:
    """The training set as a ``datasets.Dataset``."""
    return as_dataset(load_examples(data, reward, tokenizer))


def as_dataset(examples: list[dict[str, Any]]) -> Dataset:
    from datasets import Dataset

    return Dataset.from_list(examples)
