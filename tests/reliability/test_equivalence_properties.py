"""Properties of math equivalence through the real checker and its symbolic worker pool.

The fast paths already have property tests (tests/services/mathcheck); these drive answers
that only the symbolic stage can decide, in real worker processes, on a small budget.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.mathcheck.checker import MathChecker, MathVerdict, Outcome
from services.mathcheck.pool import SymbolicPool

BUDGET = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)


class Judge:
    """A real MathChecker on a one-worker pool, driven from a private event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.pool = SymbolicPool(workers=1, timeout_s=20.0, memory_mb=2048)
        self.loop.run_until_complete(self.pool.warm())

    def check(self, reference: str, answer: str) -> MathVerdict:
        # A fresh cache per call: a repeated verdict must be recomputed, not remembered.
        checker = MathChecker(self.pool, cache_size=1)
        return self.loop.run_until_complete(checker.check(reference, answer))

    def close(self) -> None:
        self.pool.close()
        self.loop.close()


@pytest.fixture(scope="module")
def judge() -> Iterator[Judge]:
    judge = Judge()
    yield judge
    judge.close()


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


roots = st.integers(-9, 9)


@BUDGET
@given(a=roots, b=roots)
def test_a_factored_quadratic_equals_its_expansion_and_not_a_shifted_one(
    judge: Judge, a: int, b: int
) -> None:
    factored = f"(x{_signed(a)})(x{_signed(b)})"
    expanded = f"x^{{2}}{_signed(a + b)}x{_signed(a * b)}"
    equal = judge.check(factored, expanded)
    assert equal.outcome is Outcome.EQUAL, equal
    shifted = judge.check(factored, f"{expanded}+1")
    assert shifted.outcome is Outcome.DIFFERENT, shifted
    # Deterministic: the same pair, judged again from scratch, gets the same verdict.
    assert judge.check(factored, expanded).outcome is Outcome.EQUAL


@BUDGET
@given(p=st.integers(1, 50), q=st.integers(2, 50), k=st.integers(2, 9))
def test_radicals_and_scaled_fractions_are_equal_symbolically(
    judge: Judge, p: int, q: int, k: int
) -> None:
    radical = f"\\frac{{{p}}}{{\\sqrt{{{q}}}}}"
    verdict = judge.check(radical, f"\\frac{{{p * k}\\sqrt{{{q}}}}}{{{q * k}}}")
    assert verdict.outcome is Outcome.EQUAL, verdict


math_text = st.text(alphabet="0123456789xy+-*/^()[]{}\\fracsqrtpi,. =<>%", max_size=40)


@BUDGET
@given(reference=math_text, answer=math_text)
def test_arbitrary_math_text_never_raises_and_is_deterministic(
    judge: Judge, reference: str, answer: str
) -> None:
    first = judge.check(reference, answer)
    second = judge.check(reference, answer)
    assert first.outcome in set(Outcome)
    assert first.detail
    if first.outcome is not Outcome.TIMEOUT:  # a deadline depends on the machine's load
        assert (first.outcome, first.method) == (second.outcome, second.method)
