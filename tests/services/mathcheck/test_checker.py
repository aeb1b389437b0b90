"""The checker end to end in-process, with a real symbolic pool of one worker process:
guards, the typed fast paths that keep pairs away from sympy, the leaves of a pair that go
to it (a pool that records or scripts what it is sent), and the verdict cache."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator

import pytest

from services.mathcheck.checker import MathChecker, Outcome
from services.mathcheck.pool import SymbolicPool, SymbolicTimeout
from services.mathcheck.symbolic import SymbolicVerdict
from tests.services.mathcheck.checking import expected, outcomes_both_ways


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
        # A root sign is read as the root it is, after a letter too.
        ("x\\sqrt{2}", "x√2", Outcome.EQUAL, "string"),
        ("\\sqrt{x}", "√x", Outcome.EQUAL, "string"),
        ("x\\sqrt{2}", "x√3", Outcome.DIFFERENT, "numeric"),
        # Conversions (comparison.py): the pair they stand for goes on to the later checks.
        ("\\pm 3", "3, -3", Outcome.EQUAL, "structural"),
        ("(C) 12", "\\frac{24}{2}", Outcome.EQUAL, "numeric"),
        ("120^\\circ", "\\frac{2\\pi}{3}", Outcome.EQUAL, "string"),
        ("1011_2", "12", Outcome.DIFFERENT, "numeric"),
        ("a = 2, b = 3", "b = 2, a = 3", Outcome.DIFFERENT, "structural"),
        ("x = 1, y = 2 or x = 3, y = 4", "(3, 4), (1, 2)", Outcome.EQUAL, "structural"),
        # Decided by the symbolic engine: a trig identity written without parentheses.
        ("\\sin^2 t", "1 - \\cos^2 t", Outcome.EQUAL, "symbolic"),
        # Element by element: math-verify, sent the two sets whole, says they differ.
        (
            "\\{\\sin^2 t, \\cos^2 t\\}",
            "\\{1 - \\cos^2 t, 1 - \\sin^2 t\\}",
            Outcome.EQUAL,
            "symbolic",
        ),
        # Texts that normalise alike, whatever the reader makes of them (a ratio here).
        ("20:34", "08:34 \\text{P.M.}", Outcome.EQUAL, "string"),
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


_COLUMN = "\\begin{pmatrix} x + 1 \\\\ \\sqrt{3} \\end{pmatrix}"
_SQUARE = "\\begin{pmatrix} x & 1 \\\\ 2 & y \\end{pmatrix}"


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        # A vector with entries other than plain numbers is the tuple of its entries.
        (_COLUMN, "(1 + x, \\sqrt3)", True),
        (_COLUMN, "\\left(x+1, \\sqrt{3}\\right)", True),
        (_COLUMN, "[x + 1, \\sqrt 3]", True),  # a list, as Python users write vectors
        (_COLUMN, "\\begin{bmatrix} x + 1 & \\sqrt{3} \\end{bmatrix}", False),  # a row
        (_COLUMN, "(x + 1, 1.732)", True),  # the decimal rounds \\sqrt{3} to its places
        (_COLUMN, "(x + 1, 1.7)", False),
        (_COLUMN, "(x + 2, \\sqrt{3})", False),
        (_COLUMN, "(\\sqrt{3}, x + 1)", False),  # the same entries in another order
        (_COLUMN, "(x + 1, \\sqrt{3}, 0)", False),
        ("\\begin{pmatrix} \\sqrt{4} \\\\ 4 \\end{pmatrix}", "(2, 4)", True),
        ("\\begin{pmatrix} \\sqrt{4} \\\\ 4 \\end{pmatrix}", "(2, 5)", False),
        ("\\begin{pmatrix} 2 \\\\ 4 \\end{pmatrix}", "(\\sqrt{4}, 4)", True),
        # Matrices entry by entry, whatever their entries.
        (_SQUARE, "\\begin{bmatrix} x & 1 \\\\ 2 & 2y - y \\end{bmatrix}", True),
        (_SQUARE, "[[x, 1], [2, y]]", True),
        (_SQUARE, "\\begin{bmatrix} 1 & x \\\\ 2 & y \\end{bmatrix}", False),
        (_SQUARE, "(x, 1, 2, y)", False),  # a square matrix is no vector
    ],
)
def test_vectors_and_matrices_of_expressions_compare_entry_by_entry(
    pool: SymbolicPool, reference: str, answer: str, equal: bool
) -> None:
    assert outcomes_both_ways(pool, reference, answer) == expected(equal)


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        # Read as the intervals they say (the table compares them).
        ("3 > x > -2", "-2 < x < 3", True),
        ("3 > x > -2", "(-2, 3)", True),
        ("8 \\ge x \\ge 2", "[2, 8]", True),
        ("3 \\ge x > -2", "(-2, 3)", False),
        ("3 > x > -2", "-3 < x < 2", False),
        ("x<-2, x>2", "(-\\infty,-2)\\cup(2,\\infty)", True),
        ("x<-2, x>2", "(-\\infty,-2]\\cup(2,\\infty)", False),
        # Solved by the symbolic engine: the set a relation it must solve says.
        ("x^2 > 4", "x<-2 \\text{ or } x>2", True),
        ("x^2 > 4", "x<-2, x>2", True),
        ("x^2 > 4", "x<-2 \\text{ or } x>3", False),
        ("x^2 < 1 \\text{ or } x > 5", "(-1, 1) \\cup (5, \\infty)", True),
        ("x^2 < 1 \\text{ or } x > 5", "(-1, 1) \\cup [5, \\infty)", False),
    ],
)
def test_relations_are_the_sets_they_say(
    pool: SymbolicPool, reference: str, answer: str, equal: bool
) -> None:
    assert outcomes_both_ways(pool, reference, answer) == expected(equal)


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


class _Recording(SymbolicPool):
    """A pool that records what it is sent, then compares in ``inner`` (or as scripted:
    a pair of canonical texts to "equal", "different" or "timeout")."""

    def __init__(
        self, inner: SymbolicPool | None = None, script: dict[tuple[str, str], str] | None = None
    ) -> None:
        self.workers = 1 if inner is None else inner.workers
        self.timeout_s = 10.0 if inner is None else inner.timeout_s
        self._inner = inner
        self._script = script or {}
        self.calls: list[tuple[str, str]] = []
        self._running = 0
        self.most_at_once = 0

    async def compare(self, reference: str, answer: str) -> SymbolicVerdict:
        self.calls.append((reference, answer))
        self._running += 1
        self.most_at_once = max(self.most_at_once, self._running)
        try:
            if self._inner is not None:
                return await self._inner.compare(reference, answer)
            await asyncio.sleep(0.01)
            scripted = self._script.get((reference, answer), "different")
            if scripted == "timeout":
                raise SymbolicTimeout("symbolic comparison exceeded 10s")
            return SymbolicVerdict(scripted == "equal", scripted)
        finally:
            self._running -= 1

    def close(self) -> None:
        pass


_SIN, _ONE_LESS_COS = "\\sin^2 t", "1 - \\cos^2 t"
_COS, _ONE_LESS_SIN = "\\cos^2 t", "1 - \\sin^2 t"
# Canonical forms, as the leaves are sent.
_A, _A_ = "\\sin^2t", "1-\\cos^2t"
_B, _B_ = "\\cos^2t", "1-\\sin^2t"


def test_a_set_sends_its_undecided_elements_not_its_text(pool: SymbolicPool) -> None:
    recording = _Recording(pool)
    checker = MathChecker(recording, cache_size=64)
    verdict = asyncio.run(checker.check(f"\\{{{_SIN}, 3\\}}", f"\\{{3, {_ONE_LESS_COS}\\}}"))
    assert (verdict.outcome, verdict.method) == (Outcome.EQUAL, "symbolic")
    assert set(recording.calls) <= {(_A, "3"), (_A, _A_), ("3", _A_)}
    assert (_A, _A_) in recording.calls


@pytest.mark.parametrize("junk", ["x", "\\text{anything}", "\\infty", "\\mathbb{R}", "?"])
def test_a_junk_element_does_not_pass_for_one_of_the_set(pool: SymbolicPool, junk: str) -> None:
    checker = MathChecker(pool, cache_size=64)
    verdict = asyncio.run(
        checker.check(f"\\{{{_SIN}, 5\\}}", f"\\{{{_ONE_LESS_COS}, 5, {junk}\\}}")
    )
    assert verdict.outcome is Outcome.DIFFERENT


def test_a_set_of_forty_expressions_goes_whole_within_one_deadline() -> None:
    # 1,600 pairs of elements the probe cannot tell apart: one comparison, not 1,600.
    short = SymbolicPool(workers=1, timeout_s=2.0, memory_mb=2048)
    try:
        asyncio.run(short.warm())
        recording = _Recording(short)
        checker = MathChecker(recording, cache_size=64)
        reference = "\\{" + ", ".join(f"{_SIN} + {k}" for k in range(40)) + "\\}"
        answer = "\\{" + ", ".join(f"{k} + {_ONE_LESS_COS}" for k in range(40)) + "\\}"
        started = time.monotonic()
        verdict = asyncio.run(checker.check(reference, answer))
        assert time.monotonic() - started < 10 * short.timeout_s
    finally:
        short.close()
    assert recording.calls == [(reference, answer)]
    assert verdict.outcome in (Outcome.EQUAL, Outcome.TIMEOUT)


@pytest.mark.parametrize(
    ("script", "outcome"),
    [
        ({(_A, _A_): "equal", (_B, _B_): "timeout"}, Outcome.TIMEOUT),
        # Decided without the leaf that timed out: one entry is apart.
        ({(_A, _A_): "different", (_B, _B_): "timeout"}, Outcome.DIFFERENT),
        ({(_A, _A_): "equal", (_B, _B_): "equal"}, Outcome.EQUAL),
    ],
)
def test_a_leaf_that_times_out_makes_the_pair_time_out(
    script: dict[tuple[str, str], str], outcome: Outcome
) -> None:
    checker = MathChecker(_Recording(script=script), cache_size=64)
    verdict = asyncio.run(checker.check(f"({_SIN}, {_COS})", f"({_ONE_LESS_COS}, {_ONE_LESS_SIN})"))
    assert verdict.outcome is outcome and verdict.method == "symbolic"


def test_the_gate_bounds_the_leaves_of_one_caller() -> None:
    script = {(_A, _A_): "equal", (_B, _B_): "equal"}
    reference, answer = f"\\{{{_SIN}, {_COS}\\}}", f"\\{{{_ONE_LESS_COS}, {_ONE_LESS_SIN}\\}}"

    async def check(recording: _Recording, gate: asyncio.Semaphore | None) -> Outcome:
        checker = MathChecker(recording, cache_size=64)
        return (await checker.check(reference, answer, gate)).outcome

    free, gated = _Recording(script=script), _Recording(script=script)
    assert asyncio.run(check(free, None)) is Outcome.EQUAL
    assert asyncio.run(check(gated, asyncio.Semaphore(1))) is Outcome.EQUAL
    assert len(free.calls) == len(gated.calls) == 4  # each element against each
    assert free.most_at_once == 4 and gated.most_at_once == 1


def test_a_leaf_is_cached_under_its_own_pair() -> None:
    recording = _Recording(script={(_A, _A_): "equal"})
    checker = MathChecker(recording, cache_size=64)

    async def both() -> list[Outcome]:
        first = await checker.check(f"({_SIN}, 3)", f"({_ONE_LESS_COS}, 3)")
        second = await checker.check(f"({_SIN}, 4)", f"({_ONE_LESS_COS}, 4)")
        return [first.outcome, second.outcome]

    assert asyncio.run(both()) == [Outcome.EQUAL, Outcome.EQUAL]
    assert recording.calls == [(_A, _A_)]


def test_identical_leaves_running_at_once_are_compared_once() -> None:
    recording = _Recording(script={(_A, _A_): "equal"})
    checker = MathChecker(recording, cache_size=64)

    async def together() -> list[Outcome]:
        verdicts = await asyncio.gather(
            checker.check(f"({_SIN}, 3)", f"({_ONE_LESS_COS}, 3)"),
            checker.check(f"({_SIN}, 4)", f"({_ONE_LESS_COS}, 4)"),
        )
        return [verdict.outcome for verdict in verdicts]

    assert asyncio.run(together()) == [Outcome.EQUAL, Outcome.EQUAL]
    assert recording.calls == [(_A, _A_)]
