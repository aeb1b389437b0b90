"""Seed 003's code reward: ``pass_fraction * base_weight + perfect_bonus * perfect_weight``
(the bonus only when every test passes, and only when every test the item asked for ran:
not when the server's limit left some out), ``empty_code_reward`` when there is no code;
the reward adds the weighted format terms."""

from __future__ import annotations

from dataclasses import dataclass

from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, RewardInterval
from services.tasks.code.evidence import CodeEvidence
from services.tasks.code.options import CodeOptions
from services.tasks.policy import ScoringPolicy


@dataclass(frozen=True)
class CodeRewardWeights:
    base_weight: float = 1.0
    perfect_bonus: float = 1.0
    perfect_weight: float = 1.0

    @classmethod
    def from_options(cls, options: CodeOptions) -> CodeRewardWeights:
        return cls(options.base_weight, options.perfect_bonus, options.perfect_weight)


def pass_reward(
    passed: int, total: int, weights: CodeRewardWeights, complete: bool = True
) -> float:
    """``pass_fraction * base_weight + perfect_bonus * perfect_weight`` (bonus if all pass,
    and ``complete``: the tests counted are all the item asked to run)."""
    if total <= 0:
        return 0.0
    reward = passed / total * weights.base_weight
    if passed == total and complete:
        reward += weights.perfect_bonus * weights.perfect_weight
    return reward


def code_reward(judgement: Judgement[CodeEvidence], policy: ScoringPolicy) -> Reward:
    evidence = judgement.evidence
    if not judgement.judged or evidence is None:
        return NO_REWARD
    if evidence.program is None:
        answer = policy.code.empty_code_reward
    else:
        weights = CodeRewardWeights.from_options(policy.code)
        tests = evidence.tests
        answer = pass_reward(tests.passed, tests.total, weights, complete=not tests.capped)
    return Reward(policy.reward.total(answer, evidence.format), answer)


def code_interval(policy: ScoringPolicy) -> RewardInterval:
    """Code: ``pass_fraction * base_weight`` (0 to ``base_weight``), plus the perfect
    bonus when every test passes, or ``empty_code_reward``; plus the format terms."""
    options = policy.code
    perfect = options.base_weight + options.perfect_bonus * options.perfect_weight
    values = (0.0, options.base_weight, perfect, options.empty_code_reward)
    return policy.reward.with_format(min(values), max(values))
