"""Seed 003's code reward, in-process: judgements in, rewards out."""

from __future__ import annotations

import pytest

from services.judgement import Judgement
from services.protocol import RewardOptions, Task
from services.rewards.format_reward import FormatScore
from services.rewards.policy import NO_REWARD
from services.tasks.code.evidence import CodeEvidence, PassCount
from services.tasks.code.reward import CodeRewardWeights, code_reward, pass_reward
from tests.services.tasks.judgements import rule_judgement

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
