"""Reading assert tests into program-side and expected-side expressions (no execution)."""

from __future__ import annotations

import pytest

from sandbox.test_split import (
    Operand,
    asks_about_nan,
    opaque_names,
    program_names,
    rewrite_opaque,
    split_test,
)

PROGRAM = "import math\nLIMIT = 3\ndef f(x):\n    return x\ndef g(a, b):\n    return a\n"


def test_plain_asserts_split_and_expected_literals_stay_on_the_host() -> None:
    split = split_test("assert f(2) == [1, {'a': (2,)}]\nassert g(1, 2) != 5", PROGRAM)
    assert split is not None
    assert split.probes == ["f(2)", "g(1, 2)"]
    assert [c.relation for c in split.checks] == ["==", "!="]
    assert split.checks[0].operands == (
        Operand("program", 0),
        Operand("literal", value=[1, {"a": (2,)}]),
    )
    assert split.references == []


def test_the_humaneval_shape_substitutes_the_candidate() -> None:
    test = (
        "METADATA = {'author': 'x'}\n\n"
        "def check(candidate):\n"
        "    '''docstring'''\n"
        "    assert candidate(1) == 1\n"
        "    assert abs(candidate(2.0) - 2.0) < 1e-6\n"
        "    assert candidate(3) is not None, 'message'\n"
        "    assert True\n\n"
        "check(f)\n"
    )
    split = split_test(test, PROGRAM)
    assert split is not None
    assert split.probes == ["f(1)", "f(2.0)", "f(3)"]
    assert [c.relation for c in split.checks] == ["==", "within <", "is not", "truthy"]
    assert split.checks[3].operands == (Operand("literal", value=True),)


@pytest.mark.parametrize(
    ("test", "relations"),
    [
        ("assert f(1) in (1, 2)", ["in"]),
        ("assert 3 not in f([1])", ["not in"]),
        ("assert 0 < f(1) <= 2", ["<", "<="]),
        ("assert f(1) and not f(0)", ["truthy", "falsy"]),
        ("import math\nassert math.isclose(f(1.0), 1.0, rel_tol=1e-3)", ["isclose"]),
        ("import math\nassert math.fabs(f(1.0) - 1.0) <= 1e-3", ["within <="]),
        ("assert f(None) is None", ["is"]),
    ],
)
def test_shapes_that_split(test: str, relations: list[str]) -> None:
    split = split_test(test, PROGRAM)
    assert split is not None and [c.relation for c in split.checks] == relations


def test_isclose_keeps_its_tolerances() -> None:
    split = split_test("import math\nassert math.isclose(f(1), 1, rel_tol=0.5, abs_tol=2)", PROGRAM)
    assert split is not None
    assert (split.checks[0].rel_tol, split.checks[0].abs_tol) == (0.5, 2.0)


@pytest.mark.parametrize(
    "test",
    [
        "for i in range(3):\n    assert f(i) == i",  # a loop
        "assert f(1) == 1 or f(1) == 2",  # an operator the program could overload
        "assert f(1) + 1",
        "assert f(1) is LIMIT",  # 'is' against something other than None/True/False
        "x = f(1)\nassert x == 1",  # set-up that runs the program
        "print(f(1))",  # no assert at all
        "def check(candidate):\n    for i in range(2):\n        assert candidate(i) == i\ncheck(f)",
        "assert f(1) == 1\nif True:\n    pass",
        "assert (",  # does not parse
        "def ok(v):\n    return v > 0\nassert ok(f(1))",  # a helper the test defines
        "def ok(v):\n    return v\nW = ok(1)\nassert f(1) == W",
        # The program's process evaluates calls of its own names and nothing else: any
        # operator, comparison or builtin around them runs in the test's own process.
        "assert all(a == b for a, b in zip(f([1]), [1]))",
        "assert bool(f(1) == 1)",
        "assert (f(1) == 1) is True",
        "assert f(1).__eq__(1)",
        "assert f(1) - 9 == 0",
        "assert abs(f(1) - 9) / 9 < 1e-6",
        "assert sum(f(i) == i for i in [1, 2]) == 2",
        "assert len(f([1])) == 1",  # a builtin around the call
        "assert -f(1) == -1",
        "assert f(1)[0:-1] == []\nassert f(LIMIT + 1) == 4",  # a computed argument
        "cases = [(3, 9)]\nassert f(cases[0][0]) == cases[0][1]",  # data read by the test
        "x = [1]\nassert f(x) == [1]\nassert f(x) == [1]",  # one list, changed in place?
        "x = [1]\nx = [2]\nassert f(x) == [2]",  # bound twice
        "assert f(*[1]) == 1",
        "assert f(**{'x': 1}) == 1",
        "assert f('a' * 100_000) == 1",  # a folded argument too large
        "assert f(2 ** 100_000) == 1",
        "assert 'f' in globals()",  # reads the program's names without naming them
        "assert eval('f(1)') == 1",
    ],
)
def test_opaque_shapes(test: str) -> None:
    assert split_test(test, PROGRAM) is None


@pytest.mark.parametrize(
    ("test", "probes"),
    [
        ("assert f(3 * 19) == 1", ["f(57)"]),
        ("assert f('ab' + 'c') == 1", ["f('abc')"]),
        ("assert f([1, 0 ** 0], -2 ** 3) == 1", ["f([1, 1], -8)"]),
        ("assert f(2 ** 100) == 1", [f"f({2**100})"]),
        ("assert f(1).real == 1", ["f(1).real"]),
        ("assert f(1)[0][1:2] == []", ["f(1)[0][1:2]"]),
        ("assert g(1, b=[2])", ["g(1, b=[2])"]),
        ("x = (1, 2)\nassert f(x) == 1\nassert f(x) == 2", ["f((1, 2))", "f((1, 2))"]),
    ],
)
def test_call_chains_with_literal_arguments_split(test: str, probes: list[str]) -> None:
    split = split_test(test, PROGRAM)
    assert split is not None and split.probes == probes


def test_a_test_that_names_nan_asks_about_it() -> None:
    plain = split_test("assert f(1) != 2", PROGRAM)
    named = split_test("import math\nassert f(1) != math.nan", PROGRAM)
    assert plain is not None and not plain.nan
    assert named is not None and named.nan
    assert asks_about_nan("assert math.isnan(f(1))")
    assert asks_about_nan("assert f(1) == float('NaN')")
    assert not asks_about_nan("assert f('banana') == 1")


def test_non_literal_expected_sides_go_to_the_reference_run_with_their_setup() -> None:
    test = "import math\nEXPECTED = sorted([3, 1])\nUNUSED = 7\nassert f(2) == EXPECTED"
    split = split_test(test, PROGRAM)
    assert split is not None
    assert split.references == ["EXPECTED"]
    assert split.reference_setup == "EXPECTED = sorted([3, 1])"
    assert split.probes == ["f(2)"]  # the program's run gets no set-up: EXPECTED stays out
    assert split.checks[0].operands[1] == Operand("reference", 0)


def test_a_literal_input_from_setup_is_inlined_and_nothing_else_reaches_the_program() -> None:
    split = split_test("DATA = [3, 1]\nWANT = [1, 3]\nassert f(DATA) == WANT", PROGRAM)
    assert split is not None
    assert split.probes == ["f([3, 1])"]  # the argument's value, not the set-up
    assert split.checks[0].operands[1] == Operand("literal", value=[1, 3])


def test_a_side_naming_a_program_name_is_the_programs() -> None:
    # LIMIT is the program's: reading it is the program's side, evaluated in its sandbox.
    split = split_test("assert f(1) < LIMIT", PROGRAM)
    assert split is not None and split.probes == ["f(1)", "LIMIT"]


def test_a_builtin_is_a_chains_start_only_as_the_function_under_test() -> None:
    # A program that defines ``len`` must not decide ``len(f(x))``: the test process runs it.
    assert split_test("assert len(f([1])) == 1", PROGRAM + "def len(x):\n    return 1\n") is None
    test = "def check(candidate):\n    assert candidate(1) == 1\ncheck(max)"
    humaneval = split_test(test, "def max(x):\n    return x\n")
    assert humaneval is not None and humaneval.probes == ["max(1)"]


def test_program_names() -> None:
    names = program_names("import os.path as p, sys\nfrom m import q\nclass C: pass\nx = y = 1")
    assert names == {"p", "sys", "q", "C", "x", "y"}
    assert program_names("def (") == frozenset()


def test_opaque_tests_are_wrapped_with_plain_comparisons() -> None:
    code = "for i in range(2):\n    assert f(i) == i, 'msg'\n    assert f(i)\nprint(len([1]) < 2)"
    rewritten = rewrite_opaque(code)
    assert rewritten.startswith("def __sandbox_test__(__sandbox_holds__, __sandbox_truthy__):")
    assert "assert __sandbox_holds__('==', f(i), i), 'msg'" in rewritten
    assert "assert __sandbox_truthy__(f(i))" in rewritten
    assert "print(len([1]) < 2)" in rewritten  # only asserts are rewritten
    assert "f(0) is not None" in rewrite_opaque("assert f(0) is not None or f(1)")
    compile(rewritten, "<test>", "exec")


def test_opaque_code_a_function_cannot_hold_runs_at_module_level() -> None:
    rewritten = rewrite_opaque("from math import *\nassert f(1) == 1")
    assert rewritten.startswith("from math import *")
    assert "def __sandbox_test__(*_):" in rewritten
    assert rewrite_opaque("def (").startswith("def (")  # fails when run


def test_opaque_names_are_what_the_test_reads_except_builtins() -> None:
    code = "x = len(y)\nassert abs(x) == f(1)\ndef max(a): pass"
    assert opaque_names(code) == ["f", "x", "y"]  # a name it binds too: fetched, shadowed
    # KodCode's ``import solution``, rewritten to a namespace of globals(): every name.
    assert opaque_names("s = types.SimpleNamespace(**globals())\nassert s.f(1)") is None
    assert opaque_names("def (") == []


def test_the_tests_own_imports_win_over_the_programs() -> None:
    # Both import math; the test's math.sqrt(2) is still the expected side.
    split = split_test("import math\nassert f(2) == math.sqrt(2)", PROGRAM)
    assert split is not None
    assert split.probes == ["f(2)"] and split.references == ["math.sqrt(2)"]
    assert split.reference_setup == "import math"
