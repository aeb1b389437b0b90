"""The choice task's reward rule, its wire components and its registry entry.

The answer is worth the request's ``correct`` / ``wrong`` rewards, or ``no_answer`` when
the completion names no choice; the reward adds the weighted format terms, as math's does.
"""

from __future__ import annotations

from services.echo import preview
from services.judgement import Judgement
from services.rewards.policy import NO_REWARD, Reward, RewardInterval
from services.tasks.choice.judge import ChoiceEvidence, ChoiceJudge
from services.tasks.choice.wire import WIRE
from services.tasks.entry import NOT_PRESENTED, JudgeParts, Presented, TaskEntry
from services.tasks.judging import TaskJudge
from services.tasks.policy import ScoringPolicy


def choice_reward(judgement: Judgement[ChoiceEvidence], policy: ScoringPolicy) -> Reward:
    evidence = judgement.evidence
    if not judgement.judged or evidence is None:
        return NO_REWARD
    scale = policy.reward.scale
    if evidence.answer is None:
        answer = scale.no_answer
    else:
        answer = scale.correct if judgement.correct else scale.wrong
    return Reward(policy.reward.total(answer, evidence.format), answer)


def choice_interval(policy: ScoringPolicy) -> RewardInterval:
    """One of the three answer rewards, plus the format terms."""
    scale = policy.reward.scale
    values = (scale.correct, scale.wrong, scale.no_answer)
    return policy.reward.with_format(min(values), max(values))


def present_choice(judgement: Judgement[ChoiceEvidence], reward: Reward) -> Presented:
    evidence = judgement.evidence
    if evidence is None or reward.answer is None:
        return NOT_PRESENTED
    components = {
        "answer": reward.answer,
        "correct": 1.0 if judgement.correct else 0.0,
        "no_answer": 1.0 if evidence.answer is None else 0.0,
        "format": evidence.format.format,
        "thinking": evidence.format.thinking,
    }
    return Presented(components, preview(evidence.answer))


def _no_letter(judgement: Judgement[ChoiceEvidence]) -> bool:
    return judgement.evidence is not None and judgement.evidence.answer is None


def _judge(parts: JudgeParts) -> TaskJudge:
    return ChoiceJudge()


ENTRY: TaskEntry[ChoiceEvidence] = TaskEntry(
    wire=WIRE,
    judge=_judge,
    reward=choice_reward,
    present=present_choice,
    interval=choice_interval,
    no_answer=_no_letter,
)
