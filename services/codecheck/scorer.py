"""Judge ``task: code`` items: extract the program and run its tests in the sandbox."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from sandbox import Failure, Language, Limits, Sandbox, SandboxUnavailable, TestCase, TestOutcome
from services.codecheck.extraction import extract_code
from services.judgement import ItemJudgement, PassCount
from services.judges.base import BatchContext, Entry, judge_each
from services.protocol import CodeItem, Judge, RewardOptions, Status, Task
from services.rewards.format_reward import score_format

DEFAULT_MAX_TESTS = 5
DEFAULT_TIMEOUT_S = 1.0
_EXCERPT = 120


def _describe(index: int, outcome: TestOutcome) -> str:
    text = f"test {index + 1}: {outcome.failure.value}"
    if outcome.failure is Failure.WRONG_OUTPUT:
        got = outcome.stdout.strip()[:_EXCERPT]
        text += f" (got {got!r})"
    elif outcome.detail:
        text += f" ({outcome.detail[:_EXCERPT]})"
    return text


class CodeScorer:
    """The code judge: the program's tests run in the sandbox; how many passed."""

    def __init__(self, sandbox: Sandbox) -> None:
        self._sandbox = sandbox

    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[ItemJudgement]:
        async def one(index: int, item: CodeItem) -> ItemJudgement:
            return await self.judge_item(index, item, context.options)

        return await judge_each(entries, context, CodeItem, one)

    async def judge_item(self, index: int, item: CodeItem, options: RewardOptions) -> ItemJudgement:
        code = extract_code(item.completion, item.language)
        tests = item.tests[: item.max_tests or DEFAULT_MAX_TESTS]
        judgement = ItemJudgement(
            index=index,
            id=item.id,
            task=Task.CODE,
            status=Status.OK,
            judge=Judge.RULE,
            detail=f"no {item.language} code found in the completion",
            answer=code,
            format=score_format(item.completion, options.min_thinking_words),
            tests=PassCount(passed=0, total=len(tests)),
        )
        if code is None:
            return judgement
        unchecked = [i + 1 for i, t in enumerate(tests) if t.code is None and t.expected is None]
        if unchecked:
            # Such a test could pass on exit status 0 alone, which never means "passed".
            detail = (
                f"test {', '.join(map(str, unchecked))} has neither code nor expected output: "
                "nothing would be checked"
            )
            return replace(judgement, status=Status.ERROR, judged=False, detail=detail)

        limits = Limits(wall_s=item.timeout_s or DEFAULT_TIMEOUT_S)
        cases = [TestCase(code=t.code, stdin=t.stdin, expected=t.expected) for t in tests]
        try:
            outcomes = await self._sandbox.run_tests(Language(item.language), code, cases, limits)
        except SandboxUnavailable as exc:
            detail = f"code execution unavailable: {exc}"
            return replace(judgement, status=Status.UNAVAILABLE, judged=False, detail=detail)

        broken = [o for o in outcomes if o.failure is Failure.SANDBOX_ERROR]
        if broken:
            # The infrastructure failed, not the program: no reward rather than a wrong one.
            detail = "; ".join(_describe(i, o) for i, o in enumerate(outcomes) if o in broken)
            return replace(
                judgement, status=Status.ERROR, judged=False, detail=f"sandbox error: {detail}"
            )

        passed = sum(outcome.passed for outcome in outcomes)
        failures = Counter(o.failure.value for o in outcomes if not o.passed)
        summary = f"{passed}/{len(outcomes)} tests passed"
        if failures:
            first = [_describe(i, o) for i, o in enumerate(outcomes) if not o.passed][:3]
            kinds = ", ".join(f"{kind}={n}" for kind, n in sorted(failures.items()))
            summary += f" ({kinds}); " + "; ".join(first)
        return replace(judgement, tests=PassCount(passed, len(outcomes)), detail=summary)
