"""A pair through the real checker, both ways round, for tests that hold a symbolic pool."""

from __future__ import annotations

import asyncio

from services.mathcheck.checker import MathChecker, Outcome
from services.mathcheck.pool import SymbolicPool


def outcomes_both_ways(pool: SymbolicPool, reference: str, answer: str) -> tuple[Outcome, Outcome]:
    """The checker's outcome for the pair, then for the pair the other way round."""
    checker = MathChecker(pool, cache_size=64)
    forward = asyncio.run(checker.check(reference, answer)).outcome
    backward = asyncio.run(checker.check(answer, reference)).outcome
    return forward, backward


def expected(equal: bool) -> tuple[Outcome, Outcome]:
    """Both ways round, equal or different."""
    outcome = Outcome.EQUAL if equal else Outcome.DIFFERENT
    return outcome, outcome
