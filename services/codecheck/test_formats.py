"""Read the test formats that code-RL datasets ship into the code item's own test shape.

A code item's ``tests`` is a list of ``{code?, stdin?, expected?}``. Datasets ship other
shapes; each is converted here, once, when the item is parsed:

- verl / PRIME, and APPS / TACO without ``fn_name``: ``{"inputs": [...], "outputs": [...]}``
  (stdin / stdout; may arrive as a JSON string, or under ``input_output``);
- APPS / TACO with ``fn_name``: each input is the argument list of one call, each output
  the return value (a one-element list may wrap it, as APPS's own checker accepts);
- LiveCodeBench: ``[{"input", "output", "testtype": "stdin" | "functional"}]``, or the row's
  ``public_test_cases`` with ``metadata.func_name``; a functional input is one JSON value
  per line, called on ``Solution()`` as the problems' starter code defines it;
- HumanEval: ``{"test": "def check(candidate): ...", "entry_point": "f"}``;
- MBPP: a list of assert strings, or ``{"test_list", "test_setup_code"?, "test_imports"?}``;
- KodCode: pytest source, ``from solution import f`` then ``def test_x(): assert ...``.

Call-based tests become assert source (one test per call, per assert or per test function),
stdin tests ``stdin``/``expected``. Anything that looks like one of these formats but cannot
be read raises :class:`TestFormatError`, so the item fails with the reason instead of being
judged some other way. Input in the native shape is returned unchanged.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

TestSpecDict = dict[str, str]

# Keys of a LiveCodeBench test case (the native shape has code, stdin, expected).
_CASE_KEYS = frozenset({"input", "output", "testtype"})
# Keys that mark a JSON object as test data of one of the formats above.
_FORMAT_KEYS = frozenset(
    {"inputs", "outputs", "input_output", "fn_name", "test_list", "entry_point", "testtype"}
    | {"public_test_cases", "private_test_cases"}
)
# The same keys in JSON too broken to parse (a truncated ground_truth, say).
_FORMAT_KEY = re.compile('"(?:' + "|".join(sorted(_FORMAT_KEYS)) + r')"\s*:')
_CALL_TYPES = frozenset({"functional", "call"})
_STDIO_TYPES = frozenset({"stdin", "stdio"})
_SOLUTION_MODULE = "solution"


class TestFormatError(ValueError):
    """Test data in a recognised format that cannot be converted; the message says why."""

    __test__ = False  # not a pytest test class


def to_test_specs(raw: Any) -> Any:
    """``raw`` as a list of ``{code?, stdin?, expected?}`` dicts; native input unchanged.

    Values of no recognised format are returned as they are, for the item's own
    validation to reject with its usual message.
    """
    try:
        return _convert(raw)
    except TestFormatError:
        raise
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        # Deeply nested or oversized data: a clear item error, never a crash.
        raise TestFormatError(f"test data cannot be read: {type(exc).__name__}: {exc}") from exc


def looks_like_test_data(text: str) -> bool:
    """True when ``text`` is a JSON object of one of the dataset test formats (e.g. a verl
    ``ground_truth``), or one cut short: such a reference is code test data, never a math
    answer."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return False
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return _FORMAT_KEY.search(stripped) is not None
    return isinstance(value, dict) and not _FORMAT_KEYS.isdisjoint(value)


def _convert(raw: Any) -> Any:
    if isinstance(raw, str):
        return _from_text(raw)
    if isinstance(raw, Mapping):
        return _from_mapping(raw)
    if isinstance(raw, list) and raw:
        if all(isinstance(t, str) for t in raw):
            return _from_assert_list(raw)
        if all(isinstance(t, Mapping) for t in raw) and any(_CASE_KEYS & t.keys() for t in raw):
            return _from_livecodebench(raw, None)
    return raw


def _from_text(text: str) -> Any:
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            value = json.loads(stripped)
        except ValueError as exc:
            raise TestFormatError(f"tests look like JSON but do not parse: {exc}") from exc
        return _convert(value)
    return _from_python_source(text, entry_point=None)


def _from_mapping(data: Mapping[str, Any]) -> list[TestSpecDict]:
    if "input_output" in data:
        nested = _json_value(data["input_output"], "input_output")
        if not isinstance(nested, Mapping):
            raise TestFormatError("input_output must be an object with inputs and outputs")
        return _from_mapping({**nested, **_function_name_field(data)})
    if "inputs" in data or "outputs" in data:
        return _from_inputs_outputs(data)
    if "test_list" in data:
        return _from_mbpp(data)
    if "public_test_cases" in data or "private_test_cases" in data:
        return _from_livecodebench_row(data)
    if isinstance(data.get("test"), str):
        return _from_python_source(data["test"], entry_point=_optional_name(data, "entry_point"))
    keys = ", ".join(sorted(map(str, data))) or "none"
    raise TestFormatError(
        f"unknown test format (keys: {keys}); expected a list of {{code, stdin, expected}}, "
        "inputs/outputs, input_output, test_list, test (+ entry_point) or public_test_cases"
    )


def _json_value(value: Any, field: str) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError as exc:
        raise TestFormatError(f"{field} is not valid JSON: {exc}") from exc


def _function_name_field(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: data[k] for k in ("fn_name", "func_name") if data.get(k) is not None}


def _optional_name(data: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if value is None or value == "":
            continue
        if not isinstance(value, str) or not value.isidentifier():
            raise TestFormatError(f"{key} must be a Python identifier, got {value!r}")
        return value
    return None


def _from_inputs_outputs(data: Mapping[str, Any]) -> list[TestSpecDict]:
    inputs, outputs = data.get("inputs"), data.get("outputs")
    if not isinstance(inputs, list) or not isinstance(outputs, list):
        raise TestFormatError("inputs and outputs must both be lists")
    if len(inputs) != len(outputs):
        raise TestFormatError(f"{len(inputs)} inputs but {len(outputs)} outputs")
    if not inputs:
        raise TestFormatError("inputs and outputs are empty")
    function = _optional_name(data, "fn_name", "func_name")
    if function is None:
        return [
            {"stdin": _stdio_text(i, "input"), "expected": _stdio_text(o, "output")}
            for i, o in zip(inputs, outputs, strict=True)
        ]
    specs = []
    for args, returned in zip(inputs, outputs, strict=True):
        if not isinstance(args, list):
            raise TestFormatError(f"a call-based input must be a list of arguments: {args!r}")
        specs.append({"code": _call_assert(function, args, returned, unwrap=True)})
    return specs


def _stdio_text(value: Any, what: str) -> str:
    # TACO and some APPS rows give a test's stdin or stdout as a list of lines.
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "\n".join(value) + "\n"
    raise TestFormatError(f"a stdin/stdout test's {what} must be text: {value!r}")


def _literal(value: Any) -> str:
    text = repr(value)
    try:
        same = ast.literal_eval(text) == value
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise TestFormatError(f"value has no Python literal form: {text[:80]}")
    return text


def _call_assert(function: str, args: Sequence[Any], returned: Any, *, unwrap: bool) -> str:
    # LeetCode-style problems (LiveCodeBench, part of TACO) define the function as a method
    # of class Solution; the others as a plain function.
    target = (
        f'(Solution().{function} if "Solution" in globals() '
        f'and hasattr(Solution, "{function}") else {function})'
    )
    call = f"{target}({', '.join(_literal(a) for a in args)})"
    if unwrap and isinstance(returned, list) and len(returned) == 1:
        # APPS wraps a return value in a list (its checker takes either form).
        return f"assert {call} in ({_literal(returned)}, {_literal(returned[0])})"
    return f"assert {call} == {_literal(returned)}"


def _from_livecodebench_row(data: Mapping[str, Any]) -> list[TestSpecDict]:
    metadata = _json_value(data.get("metadata") or {}, "metadata")
    if not isinstance(metadata, Mapping):
        raise TestFormatError("metadata must be an object")
    function = _optional_name({**metadata, **data}, "func_name", "fn_name")
    cases = _json_value(data.get("public_test_cases") or [], "public_test_cases")
    if not isinstance(cases, list):
        raise TestFormatError("public_test_cases must be a list")
    if not cases and data.get("private_test_cases"):
        # The published private cases are a pickle (zlib, base64): unpickling dataset
        # text would execute it, so they are refused here.
        raise TestFormatError(
            "private_test_cases is a pickle and is not read; decode it offline into a list "
            "of {input, output, testtype}"
        )
    return _from_livecodebench(cases, function)


def _from_livecodebench(cases: Sequence[Any], function: str | None) -> list[TestSpecDict]:
    if not cases:
        raise TestFormatError("the test list is empty")
    specs = []
    for case in cases:
        if not isinstance(case, Mapping) or not {"input", "output"} <= case.keys():
            raise TestFormatError(f"a test case needs input and output: {str(case)[:80]}")
        kind = case.get("testtype", "stdin")
        source, expected = case["input"], case["output"]
        if not isinstance(source, str) or not isinstance(expected, str):
            raise TestFormatError("a test case's input and output must be text")
        if kind in _STDIO_TYPES:
            specs.append({"stdin": source, "expected": expected})
        elif kind in _CALL_TYPES:
            name = _optional_name(case, "func_name", "fn_name") or function
            if name is None:
                raise TestFormatError("a functional test needs func_name (metadata.func_name)")
            args = [_json_value(line, "a functional input") for line in source.splitlines()]
            returned = _json_value(expected, "a functional output")
            specs.append({"code": _call_assert(name, args, returned, unwrap=False)})
        else:
            raise TestFormatError(f"unknown testtype {kind!r} (stdin or functional)")
    return specs


def _from_mbpp(data: Mapping[str, Any]) -> list[TestSpecDict]:
    tests = data["test_list"]
    if not isinstance(tests, list) or not all(isinstance(t, str) for t in tests) or not tests:
        raise TestFormatError("test_list must be a non-empty list of assert strings")
    imports = data.get("test_imports") or []
    setup = data.get("test_setup_code") or ""
    if not isinstance(imports, list) or not all(isinstance(i, str) for i in imports):
        raise TestFormatError("test_imports must be a list of import lines")
    if not isinstance(setup, str):
        raise TestFormatError("test_setup_code must be text")
    prelude = "\n".join([*imports, setup]).strip()
    return _from_assert_list([f"{prelude}\n{t}" if prelude else t for t in tests])


def _from_assert_list(tests: Sequence[str]) -> list[TestSpecDict]:
    for number, test in enumerate(tests, 1):
        if not _checks(_parse(test)):
            raise TestFormatError(f"test {number} checks nothing (no assert): {test[:80]!r}")
    return [{"code": test} for test in tests]


def _checks(node: ast.AST) -> bool:
    """Whether code holds a check: an assert or a ``raises`` context. A test without one
    passes any program that runs, e.g. a list of answers (``["4"]``) taken for asserts."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Assert):
            return True
        if isinstance(inner, ast.Call):
            function = inner.func
            name = function.attr if isinstance(function, ast.Attribute) else None
            if isinstance(function, ast.Name):
                name = function.id
            if name == "raises":
                return True
    return False


def _parse(source: str) -> ast.Module:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        raise TestFormatError(f"test code does not parse: {exc}") from exc


def _from_python_source(source: str, entry_point: str | None) -> list[TestSpecDict]:
    module = _parse(source)
    defined = {n.name: n for n in module.body if isinstance(n, ast.FunctionDef)}
    if "check" in defined and not any(name.startswith("test") for name in defined):
        if entry_point is None:
            raise TestFormatError("a HumanEval check(candidate) test needs entry_point")
        if not _checks(defined["check"]):
            raise TestFormatError("check(candidate) checks nothing (no assert)")
        return [{"code": f"{source.rstrip()}\n\ncheck({entry_point})\n"}]
    setup = _without_solution_imports(module)
    tests = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
    if tests:
        return [_pytest_function(setup, test) for test in tests]
    asserts = [n for n in module.body if isinstance(n, ast.Assert)]
    if not asserts:
        raise TestFormatError("test code has no test_ functions and no asserts")
    prelude = [n for n in setup.body if not isinstance(n, ast.Assert)]
    return [{"code": _unparse([*prelude, check])} for check in asserts]


def _pytest_function(setup: ast.Module, test: ast.FunctionDef) -> TestSpecDict:
    arguments = test.args
    if arguments.args or arguments.posonlyargs or arguments.kwonlyargs or arguments.vararg:
        # Fixtures and parametrisation need pytest itself to run the test.
        raise TestFormatError(f"{test.name} takes arguments (pytest fixtures are not supported)")
    if not _checks(test):
        raise TestFormatError(f"{test.name} checks nothing (no assert)")
    return {"code": f"{_unparse(setup.body)}\n\n{test.name}()\n"}


def _without_solution_imports(module: ast.Module) -> ast.Module:
    """KodCode imports the solution as a module named ``solution``; here the tests run in
    the solution's own namespace, so the import becomes a view of that namespace."""

    def rewrite(node: ast.stmt) -> list[ast.stmt]:
        if isinstance(node, ast.ImportFrom) and node.module == _SOLUTION_MODULE:
            return []
        if isinstance(node, ast.Import) and any(a.name == _SOLUTION_MODULE for a in node.names):
            alias = next(a for a in node.names if a.name == _SOLUTION_MODULE)
            target = alias.asname or _SOLUTION_MODULE
            others = [a for a in node.names if a.name != _SOLUTION_MODULE]
            # The solution's names, taken when the tests start (they follow the program).
            binding = ast.parse(
                f"import types as _types\n{target} = _types.SimpleNamespace(**globals())"
            ).body
            return [*([ast.Import(names=others)] if others else []), *binding]
        return [node]

    body = [new for node in module.body for new in rewrite(node)]
    return ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))


def _unparse(nodes: Sequence[ast.stmt]) -> str:
    return ast.unparse(ast.Module(body=list(nodes), type_ignores=[]))
