"""The checker end to end in-process, with a real symbolic pool of one worker process:
guards, the typed fast paths that keep pairs away from sympy, and the verdict cache."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator

import pytest

from services.mathcheck.checker import MathChecker, Outcome
from services.mathcheck.pool import SymbolicPool


@pytest.fixture(scope="module")
def pool() -> Iterator[SymbolicPool]:
    symbolic = SymbolicPool(workers=1, timeout_s=10.0, memory_mb=2048)
    asyncio.run(symbolic.warm())
    yield symbolic
    symbolic.close()


def _checker(pool: SymbolicPool, methods: Counter[str], hits: Counter[bool]) -> MathChecker:
    return MathChecker(
        pool,
        cache_size=64,
        on_cache=lambda hit: hits.update([hit]),
        on_method=lambda method: methods.update([method]),
    )


@pytest.mark.parametrize(
    ("reference", "answer", "outcome", "method"),
    [
        ("\\frac{1}{2}", "0.5", Outcome.EQUAL, "numeric"),
        ("3 \\text{ hours}", "180 minutes", Outcome.EQUAL, "numeric"),
        ("x = 2", "y = 2", Outcome.DIFFERENT, "string"),
        ("\\frac{n(n+1)}{2}", "(n^2+n)/2", Outcome.EQUAL, "numeric"),
        ("x^2-1", "(x-1)(x+2)", Outcome.DIFFERENT, "numeric"),
        ("\\{1, 2\\}", "\\{2, 1\\}", Outcome.EQUAL, "structural"),
        # Conversions (comparison.py): the pair they stand for goes on to the later checks.
        ("\\pm 3", "3, -3", Outcome.EQUAL, "structural"),
        ("(C) 12", "\\frac{24}{2}", Outcome.EQUAL, "numeric"),
        ("120^\\circ", "\\frac{2\\pi}{3}", Outcome.EQUAL, "string"),
        ("1011_2", "12", Outcome.DIFFERENT, "numeric"),
        ("a = 2, b = 3", "b = 2, a = 3", Outcome.DIFFERENT, "structural"),
        ("x = 1, y = 2 or x = 3, y = 4", "(3, 4), (1, 2)", Outcome.EQUAL, "structural"),
        # Decided by the symbolic engine: a trig identity written without parentheses.
        ("\\sin^2 t", "1 - \\cos^2 t", Outcome.EQUAL, "symbolic"),
    ],
)
def test_verdict_and_deciding_check(
    pool: SymbolicPool, reference: str, answer: str, outcome: Outcome, method: str
) -> None:
    methods: Counter[str] = Counter()
    checker = _checker(pool, methods, Counter())
    verdict = asyncio.run(checker.check(reference, answer))
    assert (verdict.outcome, verdict.method) == (outcome, method)
    assert methods == Counter([method])


def test_hostile_input_is_refused_before_any_work(pool: SymbolicPool) -> None:
    checker = _checker(pool, Counter(), Counter())
    verdict = asyncio.run(checker.check("1", "9^{9^{9^{9^{9}}}}"))
    assert verdict.outcome is Outcome.ERROR and verdict.method == "guard"


def test_verdicts_are_cached_on_the_canonical_pair(pool: SymbolicPool) -> None:
    hits: Counter[bool] = Counter()
    checker = _checker(pool, Counter(), hits)

    async def twice() -> list[bool]:
        first = await checker.check("\\sin^2 t", "1 - \\cos^2 t")
        # Written differently, read the same: the same canonical pair.
        second = await checker.check("\\sin^2 t", "1-\\cos^2 t")
        return [first.cached, second.cached]

    assert asyncio.run(twice()) == [False, True]
    assert hits == Counter({False: 1, True: 1})
