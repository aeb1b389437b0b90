"""Properties of math equivalence through the real checker and its symbolic worker pool.

The fast paths already have property tests (tests/services/mathcheck); these drive answers
that only the symbolic stage can decide, in real worker processes, on a small budget, and
check over the whole labelled corpus (benchmarks/math_corpus.py) that
* every pair gets its label through the service with the lenient policy,
* the verdict does not depend on how the answer (or the reference) is wrapped: each pair in
  one form, the forms in turn (every pair in every form: benchmarks/math_invariance.py),
* a fast path never says "different" where the symbolic engine says "equal".
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import bare_answers
from benchmarks.math_corpus import WRAPPERS
from benchmarks.math_invariance import (
    CORPORA,
    KNOWN_MISSES,
    REFERENCE_FORMS,
    WRAPPABLE,
    answer_wrapped,
    changed_verdicts,
    reference_cases,
    reference_written,
    rotated,
    verdicts,
)
from services.contract.protocol import ExtractionPolicy
from services.mathcheck.alignment import align
from services.mathcheck.checker import MathChecker, MathVerdict, Outcome
from services.mathcheck.comparison import Verdict, decide
from services.mathcheck.extraction import extract_answer, reference_answer
from services.mathcheck.pool import SymbolicPool
from services.mathcheck.reading import read

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


def test_the_known_misses_are_in_the_bare_corpus_and_still_missed(service_url: str) -> None:
    labelled = {(case.reference, case.answer): case.label for case in bare_answers.CASES}
    assert all(labelled.get(pair) is True for pair in KNOWN_MISSES)
    assert not any(verdicts(service_url, sorted(KNOWN_MISSES)))


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_every_corpus_pair_gets_its_label(service_url: str, corpus: str) -> None:
    cases = CORPORA[corpus]
    found = verdicts(service_url, [(case.reference, case.answer) for case in cases])
    wrong = [case for case, verdict in zip(cases, found, strict=True) if verdict != case.label]
    assert not wrong


# Every pair in one form, the forms taken in turn; every pair in every form (about 37,000
# items) is benchmarks/math_invariance.py.
@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_the_verdict_does_not_depend_on_how_the_answer_is_wrapped(
    service_url: str, corpus: str
) -> None:
    wrappable = WRAPPABLE[corpus]
    assert len(wrappable) > 150
    plan = rotated(wrappable, WRAPPERS)
    assert {form for _, forms in plan for form in forms} == set(WRAPPERS)
    assert not changed_verdicts(service_url, plan, answer_wrapped)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_the_verdict_does_not_depend_on_how_the_reference_is_written(
    service_url: str, corpus: str
) -> None:
    plan = rotated(reference_cases(corpus), REFERENCE_FORMS)
    assert {form for _, forms in plan for form in forms} == set(REFERENCE_FORMS)
    assert not changed_verdicts(service_url, plan, reference_written)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_a_fast_path_never_says_different_where_the_symbolic_engine_says_equal(
    judge: Judge, corpus: str
) -> None:
    decided = 0
    for case in CORPORA[corpus]:
        answer = extract_answer(case.answer, ExtractionPolicy.LENIENT).answer
        assert answer is not None
        reference = reference_answer(case.reference)
        quick = _fast_verdict(reference, answer)
        if quick is None or quick.equal:
            continue
        decided += 1
        # Where the label says different the fast path is right whatever the symbolic engine
        # says ("m = 3, n = 5" is not "(m, n) = (5, 3)", which math-verify takes for a set):
        # only a pair labelled equal can show the fast path wrong.
        if not case.label:
            continue
        symbolic = judge.loop.run_until_complete(judge.pool.compare(reference, answer))
        assert not symbolic.equal, (case, quick, symbolic)
    assert decided > 30


def _fast_verdict(reference: str, answer: str) -> Verdict | None:
    """The checker's verdict before the symbolic engine: the typed comparison of the two
    answers read, or None when it leaves any of the pair to the symbolic engine."""
    decision = decide(*map(read, align(reference, answer)))
    return decision if isinstance(decision, Verdict) else None
