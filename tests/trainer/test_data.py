from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from trainer.config import DataSection, RewardSection
from trainer.data import DataError, build_examples, load_dataset, read_rows

MATH_ROWS = [
    {"question": "What is 1 + 1?", "ground_truth": 2},
    {"question": "What is 2 + 2?", "ground_truth": 4},
    {"question": "What is 3 + 3?", "ground_truth": 6},
]
MATH = RewardSection(task="math")


def write(path: Path, rows: Sequence[Mapping[str, Any]]) -> Path:
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    elif path.suffix == ".json":
        path.write_text(json.dumps(rows))
    else:
        pq.write_table(pa.Table.from_pylist(rows), path)
    return path


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".parquet"])
def test_reads_every_format(tmp_path: Path, suffix: str) -> None:
    path = write(tmp_path / f"rows{suffix}", MATH_ROWS)
    dataset = load_dataset(DataSection(path=str(path)), MATH)
    assert len(dataset) == 3
    assert dataset[1]["reference"] == "4"  # numbers become reference strings
    assert dataset[0]["task"] == "math"
    assert dataset[0]["prompt"][-1]["role"] == "user"
    assert "What is 1 + 1?" in dataset[0]["prompt"][-1]["content"]


def test_json_object_holding_the_rows(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps({"data": MATH_ROWS}))
    assert len(read_rows(path)) == 3


def test_max_samples(tmp_path: Path) -> None:
    path = write(tmp_path / "rows.jsonl", MATH_ROWS)
    assert len(load_dataset(DataSection(path=str(path), max_samples=2), MATH)) == 2


def test_field_mapping(tmp_path: Path) -> None:
    rows = [{"problem": "What is 5 - 2?", "answer": "3"}]
    path = write(tmp_path / "rows.jsonl", rows)
    data = DataSection(path=str(path), question_field="problem", answer_field="answer")
    example = load_dataset(data, MATH)[0]
    assert example["reference"] == "3"
    assert "What is 5 - 2?" in example["prompt"][-1]["content"]


def test_missing_field_names_the_row_and_field(tmp_path: Path) -> None:
    path = write(tmp_path / "rows.jsonl", [{"question": "x"}])
    with pytest.raises(DataError, match=r"row 0: missing field 'ground_truth'"):
        load_dataset(DataSection(path=str(path)), MATH)


def test_numeric_references_are_exact_and_a_boolean_or_nan_is_refused(tmp_path: Path) -> None:
    rows = [{"question": "q", "ground_truth": value} for value in (0.1, 10**30, 2.5)]
    dataset = load_dataset(DataSection(path=str(write(tmp_path / "rows.jsonl", rows))), MATH)
    assert [example["reference"] for example in dataset] == ["0.1", str(10**30), "2.5"]
    for value, reason in [(True, "a boolean (true)"), (float("nan"), "nan, not a finite")]:
        path = write(tmp_path / "bad.jsonl", [*rows, {"question": "q", "ground_truth": value}])
        with pytest.raises(DataError, match=re.escape(f"row 3: the reference is {reason}")):
            load_dataset(DataSection(path=str(path)), MATH)


def test_unsupported_file_type(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unsupported"):
        read_rows(tmp_path / "rows.csv")


def test_q_rows(tmp_path: Path) -> None:
    rows = [
        {
            "problem_description": "Write solve[x] returning x*2.",
            "test_cases": [
                {"q_test_code": "result:solve[3];\nshow result;", "q_expected_output": 6},
                {"q_test_code": "show solve[0];", "q_expected_output": 0},
            ],
        }
    ]
    path = write(tmp_path / "q.parquet", rows)
    reward = RewardSection(task="code", language="q")
    example = load_dataset(DataSection(path=str(path), reasoning_format="reasoning"), reward)[0]
    assert example["task"] == "code" and example["language"] == "q"
    assert example["tests"][0] == {
        "code": "result:solve[3];\nshow result;",
        "stdin": None,
        "expected": "6",
    }
    assert example["tests"][1]["expected"] == "0"
    content = example["prompt"][-1]["content"]
    assert "<reasoning>" in content and "```q" in content


def test_python_rows_with_code_and_stdin_tests(tmp_path: Path) -> None:
    rows = [
        {
            "prompt": "Read two ints and print their sum; also define add(a, b).",
            "tests": [{"code": "assert add(1, 2) == 3"}, {"stdin": "2 3", "expected": "5"}],
        }
    ]
    path = write(tmp_path / "py.jsonl", rows)
    example = load_dataset(DataSection(path=str(path)), RewardSection(task="code"))[0]
    assert example["tests"] == [
        {"code": "assert add(1, 2) == 3", "stdin": None, "expected": None},
        {"code": None, "stdin": "2 3", "expected": "5"},
    ]


def test_tests_stored_as_a_json_string(tmp_path: Path) -> None:
    rows = [{"prompt": "p", "tests": json.dumps([{"stdin": "1", "expected": "1"}])}]
    path = write(tmp_path / "py.jsonl", rows)
    example = load_dataset(DataSection(path=str(path)), RewardSection(task="code"))[0]
    assert example["tests"][0]["stdin"] == "1"


def test_reasoning_formats_and_system_prompt() -> None:
    data = DataSection(reasoning_format="think", system_prompt="You are careful.")
    prompt = build_examples(MATH_ROWS, data, MATH)[0]["prompt"]
    assert prompt[0] == {"role": "system", "content": "You are careful."}
    assert "<think>" in prompt[1]["content"] and "<answer>" in prompt[1]["content"]
    plain = build_examples(MATH_ROWS, DataSection(reasoning_format="none"), MATH)[0]["prompt"]
    assert "<think>" not in plain[-1]["content"] and "\\boxed{}" in plain[-1]["content"]


def test_text_prompts_use_the_chat_template(tiny_model_dir: Path) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    data = DataSection(conversational=False)
    prompt = build_examples(MATH_ROWS, data, MATH, tokenizer)[0]["prompt"]
    assert isinstance(prompt, str)
    assert prompt.startswith("<|im_start|>user\nWhat is 1 + 1?")
    assert prompt.endswith("<|im_start|>assistant\n")


def test_bundled_demo_set_is_right() -> None:
    rows = read_rows(Path(__file__).resolve().parents[2] / "trainer" / "data" / "demo_math.jsonl")
    assert len(rows) == 50
    words = {"plus": "+", "minus": "-", "times": "*"}
    for row in rows:
        a, op, b = re.findall(r"(\d+) (\+|-|\*|plus|minus|times) (\d+)", row["question"])[0]
        expected = eval(f"{a} {words.get(op, op)} {b}")  # two small integers: safe
        assert row["ground_truth"] == str(expected), row


def test_critique_rows_carry_the_target_score(tmp_path: Path) -> None:
    rows: list[dict[str, Any]] = [
        {"question": "Grade this proof: ...", "ground_truth": 0.8},
        {"question": "q", "ground_truth": "x"},
    ]
    path = write(tmp_path / "rows.jsonl", rows[:1])
    example = load_dataset(DataSection(path=str(path)), RewardSection(task="critique"))[0]
    assert (example["task"], example["reference"]) == ("critique", 0.8)
    assert "Total Score: X/10" in example["prompt"][-1]["content"]
    # The task's former name loads the same rows.
    assert load_dataset(DataSection(path=str(path)), RewardSection(task="grade"))[0] == example
    bad = write(tmp_path / "bad.jsonl", rows[1:])
    with pytest.raises(DataError, match="critique target must be a number"):
        load_dataset(DataSection(path=str(bad)), RewardSection(task="critique"))


# verl's code rows: chat-message prompt, tests in reward_model.ground_truth (a JSON string
# in the parquet files verl's preprocessing writes, or a dict).
VERL_STDIO = {"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]}
VERL_CALL = {"fn_name": "add", "inputs": [[1, 2], [2, 2]], "outputs": [[3], [4]]}


def verl_row(ground_truth: Any, nested: bool = True) -> dict[str, Any]:
    row: dict[str, Any] = {
        "data_source": "codecontests",
        "prompt": [
            {"role": "system", "content": "You write Python."},
            {"role": "user", "content": "Read two ints and print their sum."},
        ],
        "ability": "code",
        "extra_info": {"index": 0},
    }
    if nested:
        row["reward_model"] = {"style": "rule", "ground_truth": ground_truth}
    else:
        row["ground_truth"] = ground_truth
    return row


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
@pytest.mark.parametrize("as_string", [True, False])
def test_verl_code_rows_with_stdio_tests(tmp_path: Path, suffix: str, as_string: bool) -> None:
    truth = json.dumps(VERL_STDIO) if as_string else VERL_STDIO
    path = write(tmp_path / f"verl{suffix}", [verl_row(truth)])
    example = load_dataset(DataSection(path=str(path)), RewardSection(task="code"))[0]
    assert example["tests"] == [
        {"code": None, "stdin": "1 2\n", "expected": "3\n"},
        {"code": None, "stdin": "5 7\n", "expected": "12\n"},
    ]
    assert example["prompt"][-1]["content"].startswith("Read two ints and print their sum.")


@pytest.mark.parametrize("as_string", [True, False])
def test_verl_call_based_rows_name_the_function(tmp_path: Path, as_string: bool) -> None:
    truth = json.dumps(VERL_CALL) if as_string else VERL_CALL
    path = write(tmp_path / "verl.jsonl", [verl_row(truth, nested=False)])
    tests = load_dataset(DataSection(path=str(path)), RewardSection(task="code"))[0]["tests"]
    assert len(tests) == 2
    assert all(t["stdin"] is None and t["code"] and "add" in t["code"] for t in tests)
    assert "(1, 2)" in tests[0]["code"] and "(2, 2)" in tests[1]["code"]


def test_unreadable_verl_tests_are_refused_with_the_row(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.jsonl", [verl_row('{"inputs": ["1"], "outputs": [')])
    with pytest.raises(DataError, match=r"row 0: .*do not parse"):
        load_dataset(DataSection(path=str(path)), RewardSection(task="code"))
    path = write(tmp_path / "none.jsonl", [{"prompt": "p"}])
    with pytest.raises(DataError, match=r"missing field 'tests' \(or verl's ground_truth\)"):
        load_dataset(DataSection(path=str(path)), RewardSection(task="code"))
