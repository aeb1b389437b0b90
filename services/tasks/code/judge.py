"""Judge ``task: code`` items: extract the program and run its tests in the sandbox."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sandbox import Failure, Language, Limits, Sandbox, SandboxUnavailable, TestCase, TestOutcome
from sandbox.scheduler import current_flow
from services.codecheck.extraction import extract_code
from services.codecheck.outcome_cache import OutcomeCache, Run, RunKey
from services.domain import Judge, Status, Task
from services.judgement import Judgement
from services.rewards.format_reward import FormatScore, score_format
from services.tasks.code.pacing import PER_TURN, Pacer
from services.tasks.code.selection import Selection, TestLimits
from services.tasks.code.wire import CodeItem, TestSpec
from services.tasks.judging import BatchContext, Entry, items_of, judge_each
from services.tasks.policy import ScoringPolicy

# What the judge found: the program, its format, and how many of its tests passed.


@dataclass(frozen=True, slots=True)
class PassCount:
    """How many of a code item's tests passed, of how many taken from the item."""

    passed: int
    total: int
    # Not run because the program's first test timed out; they count as failed.
    skipped: int = 0
    # The item's tests past its limit, never taken (services.tasks.code.selection).
    not_run: int = 0
    # Those were left out by the server's limit, not by the item's own max_tests: passing
    # the tests taken is then not passing the item's tests (no perfect bonus).
    capped: bool = False

    @property
    def given(self) -> int:
        """The tests the item gave."""
        return self.total + self.not_run

    @property
    def all_passed(self) -> bool:
        """Every test the item asked to run ran and passed."""
        return self.passed == self.total > 0 and not self.capped


@dataclass(frozen=True, slots=True)
class CodeEvidence:
    program: str | None  # the program extracted from the completion; None when there is none
    format: FormatScore  # tag compliance and thinking length
    tests: PassCount


DEFAULT_TIMEOUT_S = 1.0
# The wall-clock backstop of a test, as a multiple of its CPU-time limit (the timeout).
DEFAULT_WALL_BACKSTOP = 3.0
_EXCERPT = 120


def _describe(index: int, outcome: TestOutcome) -> str:
    text = f"test {index + 1}: {outcome.failure.value}"
    if outcome.failure is Failure.WRONG_OUTPUT:
        got = outcome.stdout.strip()[:_EXCERPT]
        text += f" (got {got!r})"
    elif outcome.detail:
        text += f" ({outcome.detail[:_EXCERPT]})"
    return text


def _unchecked(tests: Sequence[TestSpec]) -> list[int]:
    """The (1-based) tests with neither code nor expected output: they would check nothing."""
    return [i + 1 for i, t in enumerate(tests) if t.code is None and t.expected is None]


# One request's runs by what they depend on: a GRPO group's identical completions run once.
Runs = dict[RunKey, "asyncio.Task[Run]"]


class CodeJudge:
    """The code judge: the program's tests run in the sandbox; how many passed.

    Every test of an item runs, up to ``tests``' limits (:mod:`services.tasks.code.selection`);
    the judgement says how many were left out and why.

    Unless ``every_test_after_timeout`` (or the request's ``every_test``), a program whose
    first test times out does not run the rest: they count as failed, and a hang costs one
    timeout instead of one per test.

    An item's timeout is CPU time: a program killed at it used that much CPU, however long
    a loaded machine took to give it; a program that waits instead (sleeps, blocks) is
    killed at ``wall_backstop`` times the timeout of wall-clock time (1: the wall clock is
    the verdict). Runs of recent requests are reused from ``outcomes``.
    """

    def __init__(
        self,
        sandbox: Sandbox,
        *,
        wall_backstop: float = DEFAULT_WALL_BACKSTOP,
        outcomes: OutcomeCache | None = None,
        tests: TestLimits | None = None,
    ) -> None:
        self._sandbox = sandbox
        self._tests = tests or TestLimits()
        self._wall_backstop = max(1.0, wall_backstop)
        self._outcomes = outcomes or OutcomeCache(0, 0)

    def limits(self, timeout_s: float) -> Limits:
        """A test's limits for an item's timeout."""
        return Limits(wall_s=timeout_s * self._wall_backstop, cpu_s=timeout_s)

    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        runs: Runs = {}
        # The sandbox takes requests in turn: this one's tests are one flow (the admitted
        # request's own where admission metered it).
        if current_flow.get() is None:
            current_flow.set(object())

        # A large request's items start a slice per turn of the loop (pacing.py), so its
        # own work on the loop leaves room for /health and other requests.
        pacer = Pacer()

        async def one(index: int, item: CodeItem) -> Judgement[CodeEvidence]:
            await pacer.turn()
            return await self.judge_item(index, item, context.policy, runs)

        return await judge_each(entries, context, CodeItem, one)

    def demand(self, entries: Sequence[Entry], policy: ScoringPolicy) -> int:
        """The sandboxed tests these items will ask for: none for an item without code or
        with a test that checks nothing, none for a run the cache holds, and items that
        repeat one another run once."""
        keys = {self._key_of(item, policy) for item in items_of(entries, CodeItem)}
        return sum(
            len(key.tests) for key in keys if key is not None and not self._outcomes.holds(key)
        )

    async def paced_demand(self, entries: Sequence[Entry], policy: ScoringPolicy) -> int:
        """:meth:`demand`, a slice of items per turn of the event loop: finding 4,096 items'
        programs and their runs' keys held the loop for a second."""
        keys: set[RunKey] = set()
        for count, item in enumerate(items_of(entries, CodeItem), 1):
            key = self._key_of(item, policy)
            if key is not None:
                keys.add(key)
            if count % PER_TURN == 0:
                await asyncio.sleep(0)
        demand = 0
        for count, key in enumerate(keys, 1):
            if not self._outcomes.holds(key):
                demand += len(key.tests)
            if count % PER_TURN == 0:
                await asyncio.sleep(0)
        return demand

    def _key_of(self, item: CodeItem, policy: ScoringPolicy) -> RunKey | None:
        """What the item's run depends on (None: nothing of it runs)."""
        code = extract_code(item.completion, item.language)
        tests = self._tests.select(item).tests
        if code is None or _unchecked(tests):
            return None
        return self._run_key(item, tests, code, policy)

    def _run_key(
        self, item: CodeItem, tests: Sequence[TestSpec], code: str, policy: ScoringPolicy
    ) -> RunKey:
        limits = self.limits(item.timeout_s or DEFAULT_TIMEOUT_S)
        cases = tuple(TestCase(code=t.code, stdin=t.stdin, expected=t.expected) for t in tests)
        return RunKey(Language(item.language), code, cases, limits, policy.code.every_test)

    async def _run(self, key: RunKey) -> Run:
        cached = self._outcomes.get(key)
        if cached is not None:
            return cached
        run = await self._execute(key.language, key.program, key.tests, key.limits, key.every_test)
        self._outcomes.put(key, run)
        return run

    async def _execute(
        self,
        language: Language,
        code: str,
        cases: Sequence[TestCase],
        limits: Limits,
        every_test: bool,
    ) -> Run:
        if every_test or len(cases) < 2:
            return Run(await self._sandbox.run_tests(language, code, cases, limits), 0)
        first = await self._sandbox.run_tests(language, code, cases[:1], limits)
        if first[0].failure is Failure.TIMEOUT:
            return Run(first, len(cases) - 1)
        return Run(first + await self._sandbox.run_tests(language, code, cases[1:], limits), 0)

    async def judge_item(
        self, index: int, item: CodeItem, policy: ScoringPolicy, runs: Runs | None = None
    ) -> Judgement[CodeEvidence]:
        code = extract_code(item.completion, item.language)
        selection = self._tests.select(item)
        tests = selection.tests
        evidence = CodeEvidence(
            program=code,
            format=score_format(item.completion, policy.min_thinking_words),
            tests=_count(selection, passed=0),
        )
        judgement = Judgement(
            index=index,
            id=item.id,
            task=Task.CODE,
            status=Status.OK,
            judge=Judge.RULE,
            detail=f"no {item.language} code found in the completion",
            evidence=evidence,
            correct=False,
        )
        if code is None:
            return judgement
        unchecked = _unchecked(tests)
        if unchecked:
            # Such a test could pass on exit status 0 alone, which never means "passed".
            detail = (
                f"test {', '.join(map(str, unchecked))} has neither code nor expected output: "
                "nothing would be checked"
            )
            return replace(judgement, status=Status.ERROR, judged=False, detail=detail)

        key = self._run_key(item, tests, code, policy)
        runs = {} if runs is None else runs
        if key not in runs:
            runs[key] = asyncio.ensure_future(self._run(key))
        try:
            # Shielded: an item cut off by the batch deadline leaves the shared run to the
            # others waiting on it.
            run = await asyncio.shield(runs[key])
        except SandboxUnavailable as exc:
            detail = f"code execution unavailable: {exc}"
            return replace(judgement, status=Status.UNAVAILABLE, judged=False, detail=detail)
        outcomes = run.outcomes

        broken = [o for o in outcomes if o.failure is Failure.SANDBOX_ERROR]
        if broken:
            # The infrastructure failed, not the program: no reward rather than a wrong one.
            detail = "; ".join(_describe(i, o) for i, o in enumerate(outcomes) if o in broken)
            return replace(
                judgement, status=Status.ERROR, judged=False, detail=f"sandbox error: {detail}"
            )

        passed = sum(outcome.passed for outcome in outcomes)
        failures = Counter(o.failure.value for o in outcomes if not o.passed)
        total = len(outcomes) + run.skipped
        summary = f"{passed}/{total} tests passed"
        if failures:
            first = [_describe(i, o) for i, o in enumerate(outcomes) if not o.passed][:3]
            kinds = ", ".join(f"{kind}={n}" for kind, n in sorted(failures.items()))
            summary += f" ({kinds}); " + "; ".join(first)
        if run.skipped:
            summary += (
                f"; {run.skipped} more skipped after the first test timed out "
                "(counted as failed; option every_test runs them)"
            )
        count = _count(selection, passed, run.skipped)
        if selection.not_run:
            summary += "; " + _left_out(selection)
        return replace(
            judgement,
            evidence=replace(evidence, tests=count),
            correct=count.all_passed,
            detail=summary,
        )


def _count(selection: Selection, passed: int, skipped: int = 0) -> PassCount:
    return PassCount(passed, len(selection.tests), skipped, selection.not_run, selection.capped)


def _left_out(selection: Selection) -> str:
    """What the result says of tests past the item's limit."""
    text = (
        f"only the first {len(selection.tests)} of the item's {selection.given} tests ran "
        f"({selection.not_run} not run: {selection.reason})"
    )
    if selection.capped:
        text += "; no perfect bonus, as not every test ran"
    return text
