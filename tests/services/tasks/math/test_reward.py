"""Seed 001's math reward and the verifier modes' reward, in-process: judgements in,
rewards out."""

from __future__ import annotations

import pytest

from services.contract.protocol import RewardOptions, Status, Task
from services.judgement import Judgement, unjudged
from services.mathcheck.extraction import Committed, ReasoningRule
from services.rewards.format_reward import FormatScore
from services.rewards.policy import NO_REWARD
from services.tasks.math.evidence import MathEvidence, Unmarked, VerifierView
from services.tasks.math.reward import math_reward
from services.tasks.policy import ScoringPolicy
from tests.services.tasks.judgements import rule_judgement

SEED_001 = RewardOptions().to_policy()  # +1 correct, -1 wrong, -0.5 none
STRICT_FORMAT = FormatScore(format=1.0, thinking=0.0, thinking_words=30)
NO_FORMAT = FormatScore(format=0.0, thinking=-1.0, thinking_words=0)


def math(
    answer: str | None = "4",
    accepted: bool = False,
    fmt: FormatScore = STRICT_FORMAT,
    view: VerifierView | None = None,
    judged: bool = True,
) -> Judgement[MathEvidence]:
    evidence = MathEvidence(
        answer=answer,
        marked=True,
        reference="4",
        format=fmt,
        committed=Committed(ReasoningRule.OFF, 0),
        accepted=accepted,
        verifier=view,
    )
    return rule_judgement(Task.MATH, evidence, correct=accepted, judged=judged)


def verified(score: float, best_effort: bool = False) -> VerifierView:
    return VerifierView("4", best_effort, probability=score, label_mass=None, score=score)


def value(judgement: Judgement[MathEvidence], policy: ScoringPolicy = SEED_001) -> float | None:
    return math_reward(judgement, policy).value


def test_seed_001_binary_reward() -> None:
    assert value(math(accepted=True)) == 1.0
    assert value(math(accepted=False)) == -1.0
    assert value(math(answer=None)) == -0.5


def test_format_terms_are_weighted_into_the_reward() -> None:
    policy = RewardOptions(answer_weight=2.0, format_weight=0.5, thinking_weight=0.25).to_policy()
    right = math_reward(math(accepted=True, fmt=STRICT_FORMAT), policy)
    assert right.value == pytest.approx(2.0 + 0.5) and right.answer == 1.0
    bare = math_reward(math(accepted=False, fmt=NO_FORMAT), policy)
    assert bare.value == pytest.approx(-2.0 - 0.25) and bare.answer == -1.0


def test_custom_scale() -> None:
    policy = RewardOptions(correct=2.0, wrong=0.0, no_answer=-3.0).to_policy()
    assert [value(math(accepted=a), policy) for a in (True, False)] == [2.0, 0.0]
    assert value(math(answer=None), policy) == -3.0


def test_verifier_scores_map_onto_the_reward_scale() -> None:
    # An answer the rule found runs from wrong (score 0) to correct (score 1).
    assert value(math(view=verified(0.75))) == pytest.approx(0.5)
    assert value(math(view=verified(0.0))) == -1.0
    assert value(math(accepted=True, view=verified(1.0))) == 1.0


def test_an_unmarked_answer_the_verifier_judged_runs_from_wrong_to_correct() -> None:
    # The policy found no marked answer: the verifier judged the unmarked one, on the same
    # wrong..correct scale as a marked one (no no-answer floor to hide under).
    assert value(math(answer=None, view=verified(0.0, True))) == -1.0
    assert value(math(answer=None, view=verified(0.6, True))) == pytest.approx(-1.0 + 2.0 * 0.6)
    assert value(math(answer=None, view=verified(1.0, True))) == 1.0


def _unmarked(accepted: bool, hidden: bool = False) -> Judgement[MathEvidence]:
    evidence = MathEvidence(
        answer=None,
        marked=False,
        reference="4",
        format=STRICT_FORMAT,
        committed=Committed(ReasoningRule.OFF, 0),
        unmarked=Unmarked("4" if accepted else "5", None, None, hidden, accepted),
    )
    return rule_judgement(Task.MATH, evidence, correct=False)


@pytest.mark.parametrize("hidden", [False, True])
def test_by_the_rule_an_unmarked_wrong_answer_is_wrong_and_a_right_one_not_credited(
    hidden: bool,
) -> None:
    assert value(_unmarked(accepted=False, hidden=hidden)) == -1.0
    assert value(_unmarked(accepted=True, hidden=hidden)) == -0.5
    # Kept between wrong and correct whatever the scale: never above marking it right,
    # never below being wrong.
    low = RewardOptions(no_answer=-3.0).to_policy()
    assert value(_unmarked(accepted=True), low) == -1.0
    high = RewardOptions(no_answer=3.0).to_policy()
    assert value(_unmarked(accepted=True), high) == 1.0
    tinyv = RewardOptions(correct=1.0, wrong=0.0, no_answer=0.0).to_policy()
    assert [value(_unmarked(a), tinyv) for a in (False, True)] == [0.0, 0.0]


def test_a_verdict_that_fell_through_keeps_its_answer_but_earns_nothing() -> None:
    reward = math_reward(math(accepted=True, judged=False), SEED_001)
    assert (reward.value, reward.answer) == (None, 1.0)


def test_an_item_no_judge_looked_at_gets_no_reward() -> None:
    late = unjudged(0, None, Task.MATH, Status.TIMEOUT, "batch time budget exhausted")
    assert math_reward(late, SEED_001) == NO_REWARD
