"""Outcome classification for both Python test styles, run for real under bwrap."""

from __future__ import annotations

import pytest

from sandbox import Failure, Limits, TestCase

from .conftest import Runner, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.timeout(60)]

SOLUTION = "def square(x):\n    return x * x\n"
STDIN_SOLUTION = "n = int(input())\nprint(n * n)\n"


def test_assert_style_pass_and_fail(runner: Runner) -> None:
    out = runner.run(
        SOLUTION,
        [
            TestCase(code="assert square(3) == 9"),
            TestCase(code="assert square(3) == 10"),
            TestCase(code="print(square(4))", expected="16\n"),
            TestCase(code="print(square(4))", expected="17"),
        ],
    )
    assert [o.failure for o in out] == [
        Failure.NONE,
        Failure.WRONG_VALUE,
        Failure.NONE,
        Failure.WRONG_OUTPUT,
    ]
    assert [o.passed for o in out] == [True, False, True, False]
    # The assert was split: the host compared the value and says what it got.
    assert out[1].detail == "assert square(3) == 10 does not hold (got 9)"
    assert out[2].stdout == "16\n"


def test_stdin_style(runner: Runner) -> None:
    out = runner.run(
        STDIN_SOLUTION,
        [
            TestCase(stdin="5\n", expected="25"),
            TestCase(stdin="5\n", expected="26"),
            TestCase(stdin="five\n", expected="25"),
        ],
    )
    assert [o.failure for o in out] == [Failure.NONE, Failure.WRONG_OUTPUT, Failure.RUNTIME_ERROR]
    assert "ValueError" in out[2].detail


def test_outcomes_keep_test_order(runner: Runner) -> None:
    tests = [TestCase(stdin=f"{i}\n", expected=str(i * i)) for i in range(12)]
    tests[7] = TestCase(stdin="7\n", expected="0")
    out = runner.run(STDIN_SOLUTION, tests)
    assert [o.passed for o in out] == [i != 7 for i in range(12)]
    assert [o.stdout.strip() for o in out] == [str(i * i) for i in range(12)]


@pytest.mark.parametrize("style", ["assert", "stdin"])
def test_exit_codes_and_sys_exit(runner: Runner, style: str) -> None:
    test = (
        TestCase(code="import sys; sys.exit(3)")
        if style == "assert"
        else TestCase(stdin="", expected="")
    )
    program = "pass" if style == "assert" else "raise SystemExit('bad input')"
    o = runner.one(program, test)
    assert o.failure is Failure.RUNTIME_ERROR and o.exit_code in (1, 3)
    if style == "stdin":
        assert "bad input" in o.stderr


@pytest.mark.parametrize("style", ["assert", "stdin"])
def test_timeout(runner: Runner, style: str) -> None:
    test = TestCase(code="while True: pass") if style == "assert" else TestCase(stdin="1")
    o = runner.one(
        "import time\n" if style == "assert" else "while True: pass", test, Limits(wall_s=0.5)
    )
    assert o.failure is Failure.TIMEOUT and not o.passed
    assert o.duration_s < 2.0


def test_cpu_limit_is_a_timeout(runner: Runner) -> None:
    o = runner.one("while True: pass", limits=Limits(wall_s=6.0, cpu_s=1.0))
    assert o.failure is Failure.TIMEOUT and "CPU" in o.detail


@pytest.mark.parametrize("style", ["assert", "stdin"])
def test_memory(runner: Runner, style: str) -> None:
    bomb = "blocks = []\nwhile True:\n    blocks.append(b'x' * (32 << 20))\n"
    test = TestCase(code=bomb) if style == "assert" else TestCase(stdin="1", expected="1")
    o = runner.one("" if style == "assert" else bomb, test, Limits(wall_s=10.0, memory_mb=256))
    assert o.failure is Failure.MEMORY, o
    assert "MemoryError" in o.stderr


@pytest.mark.parametrize("style", ["assert", "stdin"])
def test_output_limit(runner: Runner, style: str) -> None:
    spam = "import sys\nwhile True:\n    sys.stdout.write('y' * 4096)\n"
    test = TestCase(code=spam) if style == "assert" else TestCase(stdin="", expected="y")
    o = runner.one("" if style == "assert" else spam, test, Limits(max_output_bytes=10_000))
    assert o.failure is Failure.OUTPUT_LIMIT and not o.passed
    assert len(o.stdout) <= 10_000


def test_syntax_error_is_runtime_error(runner: Runner) -> None:
    o = runner.one("def broken(:\n    pass\n", TestCase(code="assert True"))
    assert o.failure is Failure.RUNTIME_ERROR and "SyntaxError" in o.stderr


def test_python_semantics(runner: Runner) -> None:
    """Forked-interpreter runs behave like `python main.py`."""
    program = (
        "import atexit, os, sys, threading, random\n"
        "atexit.register(lambda: print('atexit ran'))\n"
        "threading.Thread(target=lambda: print('thread ran')).start()\n"
        "print(__name__, os.getcwd() == os.environ['HOME'], sys.argv[0].endswith('main.py'))\n"
        "print('rnd', random.random())\n"
    )
    # A generous wall limit: this checks semantics, not speed, on a possibly busy machine.
    a, b = runner.run(program, [TestCase(), TestCase()], Limits(wall_s=10))
    assert a.passed and b.passed
    lines = a.stdout.splitlines()
    assert "__main__ True True" in lines
    assert "thread ran" in lines and lines[-1] == "atexit ran"

    def rnd(text: str) -> str:
        return next(line for line in text.splitlines() if line.startswith("rnd "))

    # Every job gets a fresh RNG seed, not the worker's state.
    assert rnd(a.stdout) != rnd(b.stdout)


def test_stderr_excerpt_and_detail(runner: Runner) -> None:
    o = runner.one("raise KeyError('missing')")
    assert o.failure is Failure.RUNTIME_ERROR
    assert "KeyError: 'missing'" in o.detail
    assert o.stderr.startswith("Traceback (most recent call last):")
    assert "_run_python" not in o.stderr  # the sandbox's own frame is hidden


def test_split_asserts_judge_values_as_python_would_for_honest_programs(runner: Runner) -> None:
    program = (
        "from collections import Counter, OrderedDict\n"
        "def count(s):\n    return Counter(s)\n"
        "def ordered():\n    return OrderedDict(b=1)\n"
        "def half(x):\n    return x / 2\n"
        "def maybe(x):\n    return None if x < 0 else [x]\n"
        "def big():\n    return 7 ** 20000\n"
    )
    tests = [
        'assert count("aab") == {"a": 2, "b": 1}',
        'assert ordered() == {"b": 1}',
        "assert half(4) == 2",  # 2.0 == 2, as in Python
        "assert maybe(-1) is None and maybe(2) == [2]",
        "assert 2 in maybe(2)",
        "assert type(maybe(1)) == list and type(half(1)) is float",
        "def check(candidate):\n    assert candidate(3) == 1.5\ncheck(half)",
        "assert big() == 7 ** 20000",  # past Python's 4300-digit limit for decimal text
    ]
    outcomes = runner.run(program, [TestCase(code=t) for t in tests])
    assert [o.detail for o in outcomes] == ["passed"] * len(tests)


def test_split_asserts_a_bool_is_not_a_number_nor_a_list_a_tuple(runner: Runner) -> None:
    # Python itself accepts `1 == True`; a reward must not.
    program = "def flag():\n    return 1\ndef pair():\n    return [1, 2]\n"
    tests = ["assert flag() == True", "assert pair() == (1, 2)", "assert flag() is True"]
    outcomes = runner.run(program, [TestCase(code=t) for t in tests])
    assert [o.failure for o in outcomes] == [Failure.WRONG_VALUE] * 3
