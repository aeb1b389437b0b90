"""Opaque Python tests, run for real under bubblewrap: the test code runs in a process of
its own and reaches the program only through plain-data calls (sandbox/remote_calls.py).
Honest programs must keep passing tests of every shape that needs the program's objects."""

from __future__ import annotations

import pytest

from sandbox import Failure, Limits, TestCase

from .conftest import Runner, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.timeout(120)]

PROGRAM = """
def double(x):
    return 2 * x
def countdown(n):
    yield from range(n, 0, -1)
def sort_in_place(items):
    items.sort()
def apply(f, x):
    return f(x)
class ParseError(ValueError):
    pass
class Odd(Exception):
    pass
def parse(text):
    if not text.isdigit():
        raise ParseError(f"not a number: {text}")
    if int(text) % 2:
        raise Odd(text)
    return int(text)
class Account:
    def __init__(self):
        self.total = 0
    def add(self, x):
        self.total += x
        return self.total
import math
"""

HONEST = {
    "loop": "for i in range(5):\n    assert double(i) == 2 * i",
    "helper": "def expect(x):\n    return x + x\nassert double(3) == expect(3) or False",
    "if-raise": "if double(2) != 4:\n    raise AssertionError('double(2)')",
    "generator": "for _ in [0]:\n    assert list(countdown(3)) == [3, 2, 1]",
    "in-place": "a = [3, 1, 2]\nsort_in_place(a)\nfor _ in [0]:\n    assert a == [1, 2, 3]",
    "callback": "for x in [1, 2]:\n    assert apply(lambda v: v * 10, x) == 10 * x",
    "object": "acc = Account()\nacc.add(2)\nfor _ in [0]:\n    assert acc.add(3) == 5",
    "module": "for _ in [0]:\n    assert math.sqrt(16) == 4.0",
    "kodcode": "import types as _types\nsolution = _types.SimpleNamespace(**globals())\n"
    "def test_parse():\n    assert solution.parse('12') == 12\ntest_parse()",
    "builtin exception": "try:\n    parse('x')\nexcept ValueError as exc:\n"
    "    assert 'not a number: x' in str(exc)\nelse:\n    raise AssertionError('no error')",
    "program exception": "try:\n    parse('3')\nexcept Exception as exc:\n"
    "    assert str(exc) == '3' and type(exc) is Exception\nelse:\n    raise AssertionError",
}


def test_honest_programs_pass_opaque_tests_of_every_shape(runner: Runner) -> None:
    outcomes = runner.run(PROGRAM, [TestCase(code=c) for c in HONEST.values()], Limits(wall_s=5))
    failed = {
        name: o.detail + o.stderr[-300:]
        for name, o in zip(HONEST, outcomes, strict=True)
        if not o.passed
    }
    assert failed == {}


def test_a_failing_opaque_test_reports_the_assertion(runner: Runner) -> None:
    outcome = runner.one(PROGRAM, TestCase(code="for i in range(3):\n    assert double(i) == 3"))
    assert outcome.failure is Failure.RUNTIME_ERROR and "AssertionError" in outcome.detail


def test_the_program_and_the_test_print_in_order(runner: Runner) -> None:
    program = "print('top')\ndef shout(x):\n    print('in', x)\n    return x\n"
    code = "for i in [1, 2]:\n    print('before', i)\n    print(shout(i))"
    expected = "top\nbefore 1\nin 1\n1\nbefore 2\nin 2\n2"
    outcome = runner.one(program, TestCase(code=code, expected=expected))
    assert outcome.passed, outcome


@pytest.mark.parametrize(
    "body", ["raise SystemExit(0)", "import os\n    os._exit(0)", "raise KeyboardInterrupt"]
)
def test_leaving_inside_a_call_fails_even_when_the_test_catches_everything(
    runner: Runner, body: str
) -> None:
    program = f"def double(x):\n    {body}\n"
    test = TestCase(
        code="for i in [1]:\n    try:\n        double(i)\n    except BaseException:\n        pass"
    )
    outcome = runner.one(program, test)
    assert not outcome.passed and outcome.failure in (Failure.NO_RESULT, Failure.RUNTIME_ERROR)


def test_program_objects_refuse_comparisons_and_truth(runner: Runner) -> None:
    """A value that is not plain data reaches the test as a reference: ``if`` on it, ``==``
    or ``!=`` raise, so an ``if ...: raise`` test cannot be passed with a rigged object."""
    program = (
        "class Yes:\n    def __eq__(self, o):\n        return True\n"
        "    def __ne__(self, o):\n        return False\n    def __bool__(self):\n"
        "        return True\ndef double(x):\n    return Yes()\n"
    )
    tests = [
        "for i in [1]:\n    if double(i) != 2 * i:\n        raise AssertionError",
        "for i in [1]:\n    if not double(i):\n        raise AssertionError",
        "for i in [1]:\n    if not (double(i) == 2 * i):\n        raise AssertionError",
    ]
    for outcome in runner.run(program, [TestCase(code=t) for t in tests]):
        assert outcome.failure is Failure.RUNTIME_ERROR, outcome
        assert "of the program is not plain data" in outcome.stderr, outcome


def test_membership_in_the_tests_globals_asks_about_names(runner: Runner) -> None:
    # The shape test_formats writes for call-based rows (APPS, LiveCodeBench): the test
    # process's globals hold the program's functions as references, which are no plain
    # data, but ``name in globals()`` asks only about the keys.
    program = "def add(a, b):\n    return a + b\n"
    chosen = '(Solution().add if "Solution" in globals() and hasattr(Solution, "add") else add)'
    tests = [
        TestCase(code=f"assert {chosen}(1, 2) in ([3], 3)"),
        TestCase(code=f"assert {chosen}(1, 2) in ([4], 4)"),
        TestCase(code='assert "Solution" not in globals() and "add" in globals()'),
    ]
    assert [o.passed for o in runner.run(program, tests)] == [True, False, True]


def test_an_opaque_test_reads_the_attributes_of_the_programs_classes(runner: Runner) -> None:
    # The program's end of the link lends every attribute of the program's objects; only
    # the test's end restricts what it lends (the program once got AttributeError here).
    program = (
        "class Solution:\n    LIMIT = 3\n"
        "    def addToAll(self, nums, k):\n        return [n + k for n in nums]\n"
    )
    chosen = (
        '(Solution().addToAll if "Solution" in globals() and hasattr(Solution, "addToAll")'
        " else addToAll)"
    )
    tests = [
        TestCase(code=f"assert {chosen}([1, 2, 3], 2) == [3, 4, 5]"),
        TestCase(code="for n in [3]:\n    assert Solution.LIMIT == n"),
        TestCase(code=f"assert {chosen}([1], 2) == [4]"),
    ]
    assert [o.passed for o in runner.run(program, tests)] == [True, True, False]
