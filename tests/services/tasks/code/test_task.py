"""The code task's entry: its judge is the sandboxed code judge where the server has one and
says code is not enabled where it has none; each test a code item takes is one unit of the
sandbox backend; its batch route is ``/score/code``. Its reward rule (seed 003), in-process:
judgements in, rewards out; and a judgement's wire components and echo."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from sandbox import Sandbox
from services.admission import Backend
from services.contract.protocol import TYPED_REQUESTS, RewardOptions, Status, Task
from services.echo import MAX_CODE_ECHO
from services.judgement import Judgement
from services.mathcheck.checker import MathChecker
from services.metrics import Metrics
from services.rewards.format_reward import FormatScore
from services.rewards.policy import NO_REWARD, Reward
from services.settings import Settings
from services.tasks.code.judge import CodeEvidence, CodeJudge, PassCount
from services.tasks.code.selection import DEFAULT_MAX_TESTS, MAX_TESTS_CEILING
from services.tasks.code.task import (
    CODE_DISABLED,
    CodeRewardWeights,
    code_reward,
    pass_reward,
    present_code,
)
from services.tasks.code.task import ENTRY as CODE
from services.tasks.code.wire import CodeItem
from services.tasks.entry import JudgeParts
from services.tasks.judging import BatchContext, Entry, TaskJudge
from tests.services.tasks.judgements import rule_judgement

ADD = "```python\ndef add(a, b):\n    return a + b\n```"


def _item(tests: int, max_tests: int | None = None) -> CodeItem:
    return CodeItem(
        task=Task.CODE,
        language="python",
        completion=ADD,
        tests=[{"code": "assert add(1, 1) == 2"}] * tests,
        max_tests=max_tests,
    )


def _judge_one(checker: MathChecker, code: TaskJudge | None) -> tuple[Status, str, bool | None]:
    parts = JudgeParts(checker, Metrics(), code=code, verifier=None)
    context = BatchContext(RewardOptions().to_policy(), deadline=1e12, budget_s=30.0)
    (judgement,) = asyncio.run(CODE.judge(parts).judge([Entry(0, _item(2))], context))
    return judgement.status, judgement.detail, judgement.correct


def test_without_a_sandbox_every_code_item_says_code_is_not_enabled(
    math_checker: MathChecker,
) -> None:
    assert _judge_one(math_checker, None) == (Status.UNAVAILABLE, CODE_DISABLED, None)


def test_with_a_sandbox_the_entry_judges_through_the_code_judge(math_checker: MathChecker) -> None:
    sandbox = Sandbox(Settings(sandbox={"workers": 1}).sandbox)
    try:
        judged = _judge_one(math_checker, CodeJudge(sandbox))
    finally:
        sandbox.close()
    assert judged == (Status.OK, "2/2 tests passed", True)


def test_an_item_asks_the_sandbox_for_each_test_it_takes() -> None:
    assert (CODE.name, CODE.item, CODE.backend) == (Task.CODE, CodeItem, Backend.SANDBOX)
    assert CODE.demand(_item(3)) == 3
    assert CODE.demand(_item(8)) == 8  # every test, not the first five
    assert CODE.demand(_item(DEFAULT_MAX_TESTS + 4)) == DEFAULT_MAX_TESTS
    assert CODE.demand(_item(DEFAULT_MAX_TESTS + 4, max_tests=DEFAULT_MAX_TESTS + 2)) == (
        DEFAULT_MAX_TESTS + 2
    )
    assert CODE.demand(_item(MAX_TESTS_CEILING + 1, max_tests=10**6)) == MAX_TESTS_CEILING
    assert CODE.demand(_item(9, max_tests=2)) == 2
    assert CODE.demand(_item(1, max_tests=8)) == 1


def test_the_entry_names_its_route_reward_and_presenter() -> None:
    assert CODE.route is not None
    assert (CODE.route.path, CODE.route.body) == ("/score/code", "CodeScoreRequest")
    assert TYPED_REQUESTS[Task.CODE].model_fields["items"].annotation == list[CodeItem]
    assert (CODE.reward, CODE.present) == (code_reward, present_code)
    assert CODE.verification is None


SEED = RewardOptions().to_policy()
STRICT_FORMAT = FormatScore(format=1.0, thinking=0.0, thinking_words=30)


def code(
    passed: int,
    total: int,
    program: str | None = "print(1)",
    judged: bool = True,
    skipped: int = 0,
    not_run: int = 0,
    capped: bool = False,
) -> Judgement[CodeEvidence]:
    tests = PassCount(passed, total, skipped, not_run, capped)
    evidence = CodeEvidence(program=program, format=STRICT_FORMAT, tests=tests)
    return rule_judgement(Task.CODE, evidence, correct=tests.all_passed, judged=judged)


def test_seed_003_code_reward() -> None:
    # pass fraction * base weight, plus perfect bonus * perfect weight when all pass
    assert code_reward(code(2, 4), SEED).value == pytest.approx(0.5)
    assert code_reward(code(3, 3), SEED).value == pytest.approx(2.0)
    assert code_reward(code(0, 3), SEED).value == 0.0
    policy = RewardOptions(base_weight=2.0, perfect_bonus=0.5, perfect_weight=3.0).to_policy()
    assert code_reward(code(1, 4), policy).value == pytest.approx(0.5)
    assert code_reward(code(4, 4), policy).value == pytest.approx(2.0 + 1.5)


def test_tests_left_out_by_the_servers_limit_withhold_the_perfect_bonus() -> None:
    # The item chose its first three tests (seed 003's max_tests_per_problem): the bonus.
    assert code_reward(code(3, 3, not_run=5), SEED).value == pytest.approx(2.0)
    # The server's limit cut it: passing the tests that ran is not passing its tests.
    assert code_reward(code(3, 3, not_run=5, capped=True), SEED).value == pytest.approx(1.0)
    assert code_reward(code(2, 3, not_run=5, capped=True), SEED).value == pytest.approx(2 / 3)
    assert pass_reward(3, 3, CodeRewardWeights(), complete=False) == pytest.approx(1.0)


def test_no_tests_earn_nothing() -> None:
    assert pass_reward(0, 0, CodeRewardWeights()) == 0.0


def test_code_format_terms_and_empty_completions() -> None:
    policy = RewardOptions(format_weight=0.5, empty_code_reward=-0.7).to_policy()
    assert code_reward(code(1, 2), policy).value == pytest.approx(0.5 + 0.5)
    empty = code_reward(code(0, 2, program=None), policy)
    assert empty.value == pytest.approx(-0.7 + 0.5) and empty.answer == -0.7


def test_code_the_sandbox_could_not_run_gets_no_reward() -> None:
    assert code_reward(code(0, 2, judged=False), SEED) == NO_REWARD


def test_a_run_program_shows_its_tests() -> None:
    presented = present_code(code(1, 2, skipped=1), Reward(0.5, 0.5))
    assert presented.components == {
        "format": 1.0,
        "thinking": 0.0,
        "tests_total": 2.0,
        "tests_skipped": 1.0,
        "tests_given": 2.0,
        "tests_not_run": 0.0,
        "tests_capped": 0.0,
        "tests_passed": 1.0,
        "pass_fraction": 0.5,
        "answer": 0.5,
    }
    assert presented.extracted == "print(1)"


def test_a_program_the_sandbox_could_not_judge_shows_no_pass_count() -> None:
    presented = present_code(code(0, 2, judged=False), NO_REWARD)
    assert presented.components == {
        "format": 1.0,
        "thinking": 0.0,
        "tests_total": 2.0,
        "tests_skipped": 0.0,
        "tests_given": 2.0,
        "tests_not_run": 0.0,
        "tests_capped": 0.0,
    }


def test_tests_left_out_are_counted_and_whose_limit_it_was() -> None:
    presented = present_code(code(3, 3, not_run=5, capped=True), Reward(1.0, 1.0))
    components = presented.components
    assert (components["tests_total"], components["tests_given"]) == (3.0, 8.0)
    assert (components["tests_not_run"], components["tests_capped"]) == (5.0, 1.0)
    chosen = present_code(code(3, 3, not_run=5), Reward(2.0, 2.0)).components
    assert (chosen["tests_not_run"], chosen["tests_capped"]) == (5.0, 0.0)


def test_a_long_program_is_cut_in_the_echo_only() -> None:
    program = "x = 1\n" * MAX_CODE_ECHO
    presented = present_code(code(1, 1, program=program), Reward(2.0, 2.0))
    assert presented.extracted is not None and len(presented.extracted) < len(program)


def test_an_item_no_judge_looked_at_presents_nothing() -> None:
    presented = present_code(replace(code(0, 1), evidence=None), NO_REWARD)
    assert (presented.components, presented.extracted) == ({}, None)
