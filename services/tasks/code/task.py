"""The code task's registry entry, its reward rule and what its results show.

The reward (seed 003): ``pass_fraction * base_weight + perfect_bonus * perfect_weight``
(the bonus only when every test passes, and only when every test the item asked for ran:
not when the server's limit left some out), ``empty_code_reward`` when there is no code;
the reward adds the weighted format terms.

On the wire: ``tests_total`` counts the tests taken (run, or skipped after a timeout),
``tests_given`` the item's tests, ``tests_not_run`` those past its limit, and
``tests_capped`` is 1 when the server's limit (not the item's ``max_tests``) left them out,
which withholds the perfect bonus.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.admission import Backend
from services.domain import Status
from services.echo import MAX_CODE_ECHO, preview
from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, RewardInterval
from services.tasks.code.judge import CodeEvidence
from services.tasks.code.options import CodeOptions
from services.tasks.code.selection import TestLimits
from services.tasks.code.wire import WIRE, CodeItem
from services.tasks.entry import NOT_PRESENTED, JudgeParts, Presented, TaskEntry
from services.tasks.judging import TaskJudge, Unavailable
from services.tasks.policy import ScoringPolicy

CODE_DISABLED = "code execution is not enabled on this server"


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


def present_code(judgement: Judgement[CodeEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None:
        return NOT_PRESENTED
    tests = evidence.tests
    components = {
        "format": evidence.format.format,
        "thinking": evidence.format.thinking,
        "tests_total": float(tests.total),
        "tests_skipped": float(tests.skipped),
        "tests_given": float(tests.given),
        "tests_not_run": float(tests.not_run),
        "tests_capped": float(tests.capped),
    }
    if judgement.judged and reward.answer is not None:
        components.update(
            tests_passed=float(tests.passed),
            pass_fraction=tests.passed / tests.total if tests.total else 0.0,
            answer=reward.answer,
        )
    return Presented(components, preview(evidence.program, MAX_CODE_ECHO))


def _judge(parts: JudgeParts) -> TaskJudge:
    return parts.code if parts.code is not None else Unavailable(CODE_DISABLED)


def _tests_run(item: CodeItem) -> int:
    """The sandbox runs every test a code item takes, under the default limits (a server
    with a sandbox counts with its code judge, which knows the server's own)."""
    return len(TestLimits().select(item).tests)


def _pass_fraction(judgement: Judgement[CodeEvidence]) -> float:
    evidence = judgement.evidence
    if evidence is None:
        return 0.0
    tests = evidence.tests
    return tests.passed / tests.total if tests.total else 0.0


def _no_program(judgement: Judgement[CodeEvidence]) -> bool:
    """No program among judged programs."""
    evidence = judgement.evidence
    return evidence is not None and evidence.program is None and judgement.status is Status.OK


ENTRY: TaskEntry[CodeEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=code_reward,
    present=present_code,
    backend=Backend.SANDBOX,
    demand=_tests_run,
    interval=code_interval,
    score=_pass_fraction,
    no_answer=_no_program,
)
