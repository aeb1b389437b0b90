"""math-verify's own labelled test pairs, as a pairs file for ``math_diff_bench.py --pairs``.

math-verify's source distribution on PyPI carries its test suite: (gold, prediction,
expected) pairs its authors wrote from model outputs (``tests/test_all.py``,
``test_numina_cases.py``, ``test_open_thoughts.py``, ``test_yujianll.py``). They are the
peer's data, not ours: this script downloads the source distribution of the math-verify
version the checker pins (PyPI only, into ``.cache/peer-tests/``; nothing is vendored),
reads every ``pytest.mark.parametrize`` table of those files by their syntax tree (no test
code runs; one entry written as an expression is evaluated with only ``math`` in reach),
and writes one JSON line a pair: ``source`` (the file), ``reference`` (gold),
``answer`` (prediction), ``label`` (expected, as a bool) and ``settings`` (the extraction
and comparison options the test passes to math-verify, kept for reading only: both
checkers are scored with their defaults).

Usage: ``python benchmarks/peer_test_pairs.py [--out .cache/peer-tests/pairs.jsonl]``,
then ``python benchmarks/math_diff_bench.py --pairs .cache/peer-tests/pairs.jsonl``.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata
import json
import math
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "peer-tests"
FILES = ("test_all.py", "test_numina_cases.py", "test_open_thoughts.py", "test_yujianll.py")
# The columns a table names its three parts by.
_REFERENCE, _ANSWER, _LABELS = "gold", "pred", ("expected", "result")
# The options of math-verify's own comparison that a test may set.
_OPTIONS = ("match_types", "precision", "strict", "allow_set_relation_comp")


def tests_directory(version: str) -> Path:
    """The ``tests`` folder of math-verify ``version``'s source distribution, downloaded
    from PyPI once."""
    unpacked = CACHE / f"math_verify-{version}" / "tests"
    if unpacked.is_dir():
        return unpacked
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", f"math-verify=={version}", "--no-deps",
         "--no-binary", ":all:", "--quiet", "--dest", str(CACHE)],
        check=True,
    )  # fmt: skip
    with tarfile.open(CACHE / f"math_verify-{version}.tar.gz") as archive:
        members = [m for m in archive.getmembers() if "/tests/" in m.name and m.isfile()]
        archive.extractall(CACHE, members=members, filter="data")
    return unpacked


def _options(function: ast.FunctionDef) -> dict[str, Any]:
    """The options the test passes to its comparison: constants, or the name of the column
    that holds them (``"=precision"``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "compare_strings":
            found: dict[str, Any] = {}
            for keyword in node.keywords:
                if keyword.arg in _OPTIONS:
                    value = keyword.value
                    found[keyword.arg] = (
                        f"={value.id}" if isinstance(value, ast.Name) else ast.literal_eval(value)
                    )
            return found
    return {}


def _tables(tree: ast.Module) -> Iterator[tuple[str, list[str], list[Any], dict[str, Any]]]:
    """Each test's name, its table's column names, rows and options."""
    for function in tree.body:
        if not isinstance(function, ast.FunctionDef):
            continue
        for decorator in function.decorator_list:
            if not (
                isinstance(decorator, ast.Call)
                and getattr(decorator.func, "attr", "") == "parametrize"
                and len(decorator.args) >= 2
            ):
                continue
            columns = [name.strip() for name in ast.literal_eval(decorator.args[0]).split(",")]
            table = decorator.args[1]
            if isinstance(table, ast.List | ast.Tuple):
                rows = [_value(row) for row in table.elts]
                yield function.name, columns, rows, _options(function)


def _value(node: ast.expr) -> Any:
    """A row as written; one written as an expression (an f-string of ``math.sqrt(17)``) is
    evaluated with nothing but ``math`` in reach."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        code = compile(ast.Expression(node), "<table row>", "eval")
        return eval(code, {"__builtins__": {}, "math": math})


def pairs(tests: Path) -> Iterator[dict[str, Any]]:
    """The labelled pairs of the four files, in the order written."""
    for name in FILES:
        tree = ast.parse((tests / name).read_text())
        for test, columns, rows, options in _tables(tree):
            label_column = next((c for c in columns if c in _LABELS), None)
            if _REFERENCE not in columns or _ANSWER not in columns or label_column is None:
                continue
            for row in rows:
                values = dict(zip(columns, row, strict=True))
                settings = {
                    key: values[value[1:]] if isinstance(value, str) and value[:1] == "=" else value
                    for key, value in options.items()
                }
                yield {
                    "source": f"huggingface/Math-Verify/tests/{name}",
                    "reference": values[_REFERENCE],
                    "answer": values[_ANSWER],
                    "label": bool(values[label_column]),
                    "settings": {**settings, "test": test},
                }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=CACHE / "pairs.jsonl")
    args = parser.parse_args()
    version = importlib.metadata.version("math-verify")
    found = list(pairs(tests_directory(version)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(pair) + "\n" for pair in found))
    per_file: dict[str, int] = {}
    for pair in found:
        per_file[pair["source"]] = per_file.get(pair["source"], 0) + 1
    print(f"math-verify {version}: {len(found)} labelled pairs -> {args.out}")
    for source, count in per_file.items():
        print(f"  {count:4d}  {source}")


if __name__ == "__main__":
    main()
