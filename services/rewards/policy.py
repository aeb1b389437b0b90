"""Every reward the service returns: one policy built from the request's options.

The formulas, as the seeds give them:

* math (seed 001): the answer is worth ``correct`` / ``wrong`` / ``no_answer``; the reward
  is ``answer_weight * answer + format_weight * format + thinking_weight * thinking``.
* the LLM verifier's modes (TinyV): a score in [0, 1] from the rule verdict and the
  verifier's probability ``p`` (:func:`combined_score`), mapped onto the reward scale
  (:func:`answer_value`), then the same weighted sum.
* code (seed 003): ``pass_fraction * base_weight + perfect_bonus * perfect_weight`` (the
  bonus only when every test passes), ``empty_code_reward`` when there is no code.
* grade and rubric items (seed 004): ``(1 - |score - reference|)**2``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from services.judgement import ItemJudgement
from services.protocol import Mode, RewardOptions, Task
from services.rewards.format_reward import FormatScore


@dataclass(frozen=True)
class RewardScale:
    correct: float = 1.0
    wrong: float = -1.0
    no_answer: float = -0.5

    def from_score(self, score: float) -> float:
        """Map a probability of correctness in [0, 1] onto the reward scale."""
        return self.wrong + (self.correct - self.wrong) * score


@dataclass(frozen=True)
class FormatWeights:
    answer: float = 1.0
    format: float = 0.0
    thinking: float = 0.0


@dataclass(frozen=True)
class CodeRewardWeights:
    base_weight: float = 1.0
    perfect_bonus: float = 1.0
    perfect_weight: float = 1.0


def combine(answer_value: float, fmt: FormatScore, weights: FormatWeights) -> float:
    """Weighted sum of the answer value and the format components."""
    return (
        weights.answer * answer_value
        + weights.format * fmt.format
        + weights.thinking * fmt.thinking
    )


def needs_verifier(mode: Mode, rule_correct: bool) -> bool:
    """Whether the verifier is asked at all: ``addon`` asks about every answer the rule
    did not accept (wrong, none found, the rule timed out or failed)."""
    if mode is Mode.RULE:
        return False
    if mode is Mode.ADDON:
        return not rule_correct
    return True


def combined_score(mode: Mode, rule_correct: bool, probability: float, weight: float) -> float:
    """The score in [0, 1] for one answer; ``w`` is the verifier weight.

    rule: the rule alone. addon: correct if the rule says so, else ``p * w``.
    mixed: ``p * w + rule * (1 - w)``. verifier_only: ``p``.
    """
    rule = 1.0 if rule_correct else 0.0
    if mode is Mode.RULE:
        return rule
    if mode is Mode.ADDON:
        return 1.0 if rule_correct else probability * weight
    if mode is Mode.MIXED:
        return probability * weight + rule * (1.0 - weight)
    return probability


def answer_value(scale: RewardScale, score: float, answered: bool) -> float:
    """The answer component for a combined score.

    An answer the rule found runs from ``wrong`` (score 0) to ``correct`` (score 1). Where
    the rule found none, the floor is ``no_answer``: that reward stands only when the
    verifier rejects the best-effort answer too.
    """
    if answered:
        return scale.from_score(score)
    return scale.no_answer + (scale.correct - scale.no_answer) * score


def code_reward(passed: int, total: int, weights: CodeRewardWeights) -> float:
    """``pass_fraction * base_weight + perfect_bonus * perfect_weight`` (bonus if all pass)."""
    if total <= 0:
        return 0.0
    reward = passed / total * weights.base_weight
    if passed == total:
        reward += weights.perfect_bonus * weights.perfect_weight
    return reward


def rubric_reward(score: float, reference: float) -> float:
    """TinyV/RRM rubric reward: ``(1 - |score - reference|)**2`` for scores in [0, 1]."""
    return (1.0 - abs(score - reference)) ** 2


@dataclass(frozen=True, slots=True)
class Reward:
    """An item's reward, and its answer component (before the format terms)."""

    value: float | None  # None when no judge reached a verdict
    answer: float | None = None


NO_REWARD = Reward(None)


@dataclass(frozen=True)
class RewardPolicy:
    """The reward arithmetic of one request, one method per task and verifier mode."""

    scale: RewardScale
    weights: FormatWeights
    code_weights: CodeRewardWeights
    empty_code: float
    verifier_weight: float

    @classmethod
    def from_options(cls, options: RewardOptions) -> RewardPolicy:
        return cls(
            scale=RewardScale(options.correct, options.wrong, options.no_answer),
            weights=FormatWeights(
                options.answer_weight, options.format_weight, options.thinking_weight
            ),
            code_weights=CodeRewardWeights(
                options.base_weight, options.perfect_bonus, options.perfect_weight
            ),
            empty_code=options.empty_code_reward,
            verifier_weight=options.verifier_weight,
        )

    def reward(self, judgement: ItemJudgement) -> Reward:
        """The reward of a judged item, by its task."""
        if judgement.task is None:
            return NO_REWARD
        return _BY_TASK[judgement.task](self, judgement)

    # -- math -----------------------------------------------------------------------------

    def rule_answer(self, answered: bool, accepted: bool) -> float:
        """The answer component by the rule alone: correct, wrong, or no answer found."""
        if not answered:
            return self.scale.no_answer
        return self.scale.correct if accepted else self.scale.wrong

    def verifier_score(self, mode: Mode, rule_accepted: bool, probability: float) -> float:
        """The mode's score in [0, 1] from the rule verdict and the verifier's probability."""
        return combined_score(mode, rule_accepted, probability, self.verifier_weight)

    def verified_answer(self, score: float, answered: bool) -> float:
        """The answer component for a verifier-mode score (with the no-answer floor)."""
        return answer_value(self.scale, score, answered)

    def total(self, answer: float, fmt: FormatScore) -> float:
        """The reward: the answer component plus the weighted format terms."""
        return combine(answer, fmt, self.weights)

    def math(self, judgement: ItemJudgement) -> Reward:
        if judgement.format is None:
            return NO_REWARD
        answered = judgement.answer is not None
        view = judgement.verifier
        if view is not None:
            answer = self.verified_answer(view.score, answered)
        else:
            answer = self.rule_answer(answered, judgement.accepted)
        # A verdict that fell through (verifier_only without a verifier) keeps its answer
        # component for the record, but earns no reward.
        value = self.total(answer, judgement.format) if judgement.judged else None
        return Reward(value, answer)

    # -- code -----------------------------------------------------------------------------

    def code(self, judgement: ItemJudgement) -> Reward:
        fmt, tests = judgement.format, judgement.tests
        if not judgement.judged or fmt is None or tests is None:
            return NO_REWARD
        if judgement.answer is None:
            answer = self.empty_code
        else:
            answer = code_reward(tests.passed, tests.total, self.code_weights)
        return Reward(self.total(answer, fmt), answer)

    # -- graded critiques -----------------------------------------------------------------

    def grade(self, judgement: ItemJudgement) -> Reward:
        """Seed 004's RRM-training reward: 0.0 when no grade could be read."""
        if not judgement.judged or judgement.target is None:
            return NO_REWARD
        if judgement.grade is None:
            return Reward(0.0)
        return Reward(rubric_reward(judgement.grade, judgement.target))

    def rubric(self, judgement: ItemJudgement) -> Reward:
        """The LLM grader's score against the target."""
        if not judgement.judged or judgement.grade is None or judgement.target is None:
            return NO_REWARD
        return Reward(rubric_reward(judgement.grade, judgement.target))


_BY_TASK: dict[Task, Callable[[RewardPolicy, ItemJudgement], Reward]] = {
    Task.MATH: RewardPolicy.math,
    Task.CODE: RewardPolicy.code,
    Task.GRADE: RewardPolicy.grade,
    Task.RUBRIC: RewardPolicy.rubric,
}
