"""Score ``task: code`` items: extract the program, run its tests in the sandbox, reward."""

from __future__ import annotations

from collections import Counter

from sandbox import Failure, Language, Limits, Sandbox, SandboxUnavailable, TestCase, TestOutcome
from services.codecheck.extraction import extract_code
from services.echo import MAX_CODE_ECHO, preview
from services.protocol import CodeItem, Judge, RewardOptions, ScoreResult, Status, Task
from services.rewards.code_reward import CodeRewardWeights, code_reward
from services.rewards.format_reward import score_format
from services.rewards.math_reward import FormatWeights, combine

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
    def __init__(self, sandbox: Sandbox) -> None:
        self._sandbox = sandbox

    async def score(self, index: int, item: CodeItem, options: RewardOptions) -> ScoreResult:
        fmt = score_format(item.completion, options.min_thinking_words)
        weights = FormatWeights(
            options.answer_weight, options.format_weight, options.thinking_weight
        )
        components = {"format": fmt.format, "thinking": fmt.thinking}
        code = extract_code(item.completion, item.language)
        tests = item.tests[: item.max_tests or DEFAULT_MAX_TESTS]
        components["tests_total"] = float(len(tests))

        def result(
            reward: float | None, status: Status, detail: str, extracted: str | None = None
        ) -> ScoreResult:
            return ScoreResult(
                index=index,
                id=item.id,
                task=Task.CODE,
                reward=reward,
                status=status,
                judge=Judge.RULE,
                components=components,
                extracted=preview(extracted, MAX_CODE_ECHO),
                detail=detail,
            )

        if code is None:
            components.update(tests_passed=0.0, pass_fraction=0.0, answer=options.empty_code_reward)
            reward = combine(options.empty_code_reward, fmt, weights)
            return result(reward, Status.OK, f"no {item.language} code found in the completion")

        limits = Limits(wall_s=item.timeout_s or DEFAULT_TIMEOUT_S)
        cases = [TestCase(code=t.code, stdin=t.stdin, expected=t.expected) for t in tests]
        try:
            outcomes = await self._sandbox.run_tests(Language(item.language), code, cases, limits)
        except SandboxUnavailable as exc:
            return result(None, Status.UNAVAILABLE, f"code execution unavailable: {exc}", code)

        broken = [o for o in outcomes if o.failure is Failure.SANDBOX_ERROR]
        if broken:
            # The infrastructure failed, not the program: no reward rather than a wrong one.
            detail = "; ".join(_describe(i, o) for i, o in enumerate(outcomes) if o in broken)
            return result(None, Status.ERROR, f"sandbox error: {detail}", code)

        passed = sum(outcome.passed for outcome in outcomes)
        answer = code_reward(
            passed,
            len(outcomes),
            CodeRewardWeights(options.base_weight, options.perfect_bonus, options.perfect_weight),
        )
        components.update(
            tests_passed=float(passed),
            pass_fraction=passed / len(outcomes) if outcomes else 0.0,
            answer=answer,
        )
        failures = Counter(o.failure.value for o in outcomes if not o.passed)
        summary = f"{passed}/{len(outcomes)} tests passed"
        if failures:
            first = [_describe(i, o) for i, o in enumerate(outcomes) if not o.passed][:3]
            kinds = ", ".join(f"{kind}={n}" for kind, n in sorted(failures.items()))
            summary += f" ({kinds}); " + "; ".join(first)
        return result(combine(answer, fmt, weights), Status.OK, summary, code)
