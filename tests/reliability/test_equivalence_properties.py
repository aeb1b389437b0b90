"""Properties of math equivalence through the real checker and its symbolic worker pool.

The fast paths already have property tests (tests/services/mathcheck); these drive answers
that only the symbolic stage can decide, in real worker processes, on a small budget, and
check over the whole labelled corpus (benchmarks/math_corpus.py) that
* every pair gets its label through the service with the lenient policy,
* the verdict does not depend on how the answer (or the reference) is wrapped,
* a fast path never says "different" where the symbolic engine says "equal".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import bare_answers
from benchmarks.math_corpus import CASES, WRAPPERS, Case
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


# Items per request: under the service's batch limit, as a trainer would send them.
BATCH = 2048


def _verdicts(url: str, pairs: list[tuple[str, str]]) -> list[bool]:
    """Whether the service judges each (reference, completion) correct, lenient policy."""
    items = [{"reference": reference, "completion": answer} for reference, answer in pairs]
    results: list[dict[str, Any]] = []
    for start in range(0, len(items), BATCH):
        response = httpx.post(
            f"{url}/score/math",
            json={"items": items[start : start + BATCH], "options": {"extraction": "lenient"}},
            timeout=600,
        )
        response.raise_for_status()
        results.extend(response.json()["results"])
    assert all(r["status"] == "ok" for r in results), [r for r in results if r["status"] != "ok"]
    return [r["components"]["correct"] == 1.0 for r in results]


# Equivalent answers in the bare corpus that neither checker accepts (math-verify misses them
# too); each would need knowledge no rule here has. They are listed, not hidden: the
# benchmark reports them, and a pair that starts to pass must be taken off this list.
KNOWN_MISSES = {
    ("\\$12.40", "12 dollars and 40 cents"),  # an amount in two units
    ("\\text{odd}", "\\text{odd number}"),  # a word and a noun after it
    ("\\text{Sunday}", "Sun."),  # an abbreviation
    ("\\frac{4}{3}\\pi r^3", "4/3 pi r^3"),  # plain text whose precedence is a guess
    ("\\frac{x^3}{3}+C", "\\frac{x^3}{3}"),  # an antiderivative without its constant
    ("\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}", "I_2"),  # a matrix by its name
    ("\\frac{1}{2}", "1 half"),  # a numeral before a fraction word
    ("\\{5,7\\}", "the solutions are 5 and 7"),  # a sentence, not a bare answer
    ("\\{1, 2, 3\\}", "\\{x \\in \\mathbb{Z} : 1 \\le x \\le 3\\}"),  # a set by its rule
}
CORPORA: dict[str, list[Case]] = {
    "main": list(CASES),
    "bare": [
        case for case in bare_answers.CASES if (case.reference, case.answer) not in KNOWN_MISSES
    ],
}


def test_the_known_misses_are_in_the_bare_corpus_and_still_missed(service_url: str) -> None:
    labelled = {(case.reference, case.answer): case.label for case in bare_answers.CASES}
    assert all(labelled.get(pair) is True for pair in KNOWN_MISSES)
    assert not any(_verdicts(service_url, sorted(KNOWN_MISSES)))


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_every_corpus_pair_gets_its_label(service_url: str, corpus: str) -> None:
    cases = CORPORA[corpus]
    verdicts = _verdicts(service_url, [(case.reference, case.answer) for case in cases])
    wrong = [case for case, verdict in zip(cases, verdicts, strict=True) if verdict != case.label]
    assert not wrong


# A "$" inside the answer (a currency sign) cannot be wrapped in "$…$".
_WRAPPABLE = {
    name: [case for case in cases if case.bare and "$" not in case.answer]
    for name, cases in CORPORA.items()
}
_REFERENCE_FORMS = {"plain": "{}", "dollars": "${}$", "boxed": "\\boxed{{{}}}"}


def _answer_wrapped(case: Case, form: str) -> tuple[str, str]:
    return case.reference, WRAPPERS[form](case.answer)


def _reference_written(case: Case, form: str) -> tuple[str, str]:
    return _REFERENCE_FORMS[form].format(case.reference), case.answer


def _changed_verdicts(
    url: str, cases: list[Case], forms: Iterable[str], pair: Callable[[Case, str], tuple[str, str]]
) -> list[tuple[Case, dict[str, bool]]]:
    """The cases whose verdict is not their label in every form; ``pair`` writes a case's
    (reference, completion) in one form."""
    names = list(forms)
    verdicts = iter(_verdicts(url, [pair(case, name) for case in cases for name in names]))
    by_case = [(case, {name: next(verdicts) for name in names}) for case in cases]
    return [(case, by_form) for case, by_form in by_case if set(by_form.values()) != {case.label}]


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_the_verdict_does_not_depend_on_how_the_answer_is_wrapped(
    service_url: str, corpus: str
) -> None:
    wrappable = _WRAPPABLE[corpus]
    assert len(wrappable) > 150
    assert not _changed_verdicts(service_url, wrappable, WRAPPERS, _answer_wrapped)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_the_verdict_does_not_depend_on_how_the_reference_is_written(
    service_url: str, corpus: str
) -> None:
    cases = [case for case in _WRAPPABLE[corpus] if "\\boxed" not in case.reference]
    assert not _changed_verdicts(service_url, cases, _REFERENCE_FORMS, _reference_written)


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
        symbolic = judge.loop.run_until_complete(judge.pool.compare(reference, answer))
        # Where the symbolic engine says equal, the label must say the fast path is right
        # ("m = 3, n = 5" is not "(m, n) = (5, 3)", which math-verify takes for a set).
        assert not symbolic.equal or not case.label, (case, quick, symbolic)
    assert decided > 30


def _fast_verdict(reference: str, answer: str) -> Verdict | None:
    """The checker's verdict before the symbolic engine: the typed comparison of the two
    answers read, or None when it leaves any of the pair to the symbolic engine."""
    decision = decide(*map(read, align(reference, answer)))
    return decision if isinstance(decision, Verdict) else None
