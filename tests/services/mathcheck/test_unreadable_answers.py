"""An answer the parser cannot read as mathematics is never a number found in it.

A generic adversary over the corpora's references: each whole-number reference written
inside shapes that are not that number (an open-ended list, a vector, a set-builder, a
divisibility, malformed LaTeX with the number last), both ways round, through the real
checker and symbolic pool. math-verify's extraction, given such a text in a box, returns
its last number, and the number was credited; the engine now parses the text it is given
and nothing else (``symbolic._parse_cached``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from benchmarks import bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3, math_corpus
from services.mathcheck.checker import MathChecker, Outcome
from services.mathcheck.pool import SymbolicPool

SHAPES = {
    "open-ended list": "1, 3, {n}, \\dots",
    "vector": "\\langle 0, {n} \\rangle",
    "set-builder": "\\{{x \\mid x > {n}\\}}",
    "divides": "x \\mid {n}",
    "unclosed fraction": "\\frac{{7}}{{ ]] {n}",
    "unknown command": "\\oops{{ {n}",
    "unclosed root": "\\sqrt{{ {n}",
    "stray bracket": "]] {n}",
}


def _references(count: int) -> list[str]:
    """``count`` distinct whole-number references from every corpus, in corpus order."""
    found: dict[str, None] = {}
    for corpus in (math_corpus, bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3):
        for case in corpus.CASES:
            text = case.reference.strip()
            if text.isdigit() and 1 < int(text) < 10**6:
                found.setdefault(text, None)
    return list(found)[:count]


REFERENCES = _references(30)


@pytest.fixture(scope="module")
def checker() -> Iterator[MathChecker]:
    pool = SymbolicPool(workers=1, timeout_s=10.0, memory_mb=2048)
    yield MathChecker(pool, cache_size=4096)
    pool.close()


def test_the_adversary_has_references_to_work_with() -> None:
    assert len(REFERENCES) == 30


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_number_inside_another_shape_is_not_that_number(checker: MathChecker, shape: str) -> None:
    async def credited() -> list[tuple[str, str]]:
        wrong = []
        for number in REFERENCES:
            text = SHAPES[shape].format(n=number)
            for reference, answer in ((number, text), (text, number)):
                verdict = await checker.check(reference, answer)
                if verdict.outcome is Outcome.EQUAL:
                    wrong.append((reference, answer))
        return wrong

    assert asyncio.run(credited()) == []
