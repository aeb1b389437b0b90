"""The edge of the pipeline: a judgement and its reward become the wire ``ScoreResult``.

This is the one place the response's ``components`` and ``extracted`` are written; no stage
reads them back.
"""

from __future__ import annotations

from collections.abc import Callable

from services.echo import MAX_ANSWER_ECHO, MAX_CODE_ECHO, preview
from services.judgement import ItemJudgement
from services.mathcheck.reasoning import ReasoningRule
from services.protocol import ScoreResult, Task
from services.rewards.policy import Reward

Components = dict[str, float]


def to_result(judgement: ItemJudgement, reward: Reward) -> ScoreResult:
    """The response entry of one item."""
    components = _COMPONENTS[judgement.task](judgement, reward) if judgement.task else {}
    return ScoreResult(
        index=judgement.index,
        id=judgement.id,
        task=judgement.task,
        reward=reward.value,
        status=judgement.status,
        judge=judgement.judge,
        components=components,
        extracted=_echo(judgement),
        detail=judgement.detail,
    )


def _echo(judgement: ItemJudgement) -> str | None:
    """What was judged, cut for the response: the verifier's best-effort answer where the
    rule found none."""
    shown = judgement.answer
    if shown is None and judgement.verifier is not None:
        shown = judgement.verifier.shown
    return preview(shown, MAX_CODE_ECHO if judgement.task is Task.CODE else MAX_ANSWER_ECHO)


def _math(judgement: ItemJudgement, reward: Reward) -> Components:
    fmt, view = judgement.format, judgement.verifier
    if fmt is None or reward.answer is None:
        return {}
    answered = judgement.answer is not None
    correct = judgement.accepted if view is None else view.score >= 0.5
    components = {
        "format": fmt.format,
        "thinking": fmt.thinking,
        "thinking_words": float(fmt.thinking_words),
        # Whether the answer carried a final-answer marker (box, tag, ####, "answer is").
        "marked": float(judgement.marked),
        "answer": reward.answer,
        "correct": 1.0 if correct else 0.0,
        "no_answer": 0.0 if answered else 1.0,
    }
    if judgement.committed is not None:
        components.update(_reasoning_rule(judgement.committed.rule))
    if judgement.verifier_refusal is not None:
        # The mode asks the verifier, but the completion holds nothing it may judge.
        components["answer_bearing"] = 0.0
    if view is not None:
        components.update(
            answer_bearing=1.0,
            rule_correct=1.0 if judgement.accepted else 0.0,
            verifier=view.probability,
            verifier_label_mass=view.label_mass if view.label_mass is not None else 1.0,
            verifier_best_effort=1.0 if view.best_effort else 0.0,
            score=view.score,
        )
    return components


def _reasoning_rule(rule: ReasoningRule) -> Components:
    """Which reasoning-block rule applied: on or off, answer after a closed block, or an
    unclosed block that left no answer."""
    return {
        "reasoning_rule": 0.0 if rule is ReasoningRule.OFF else 1.0,
        "after_reasoning": 1.0 if rule is ReasoningRule.AFTER_BLOCK else 0.0,
        "reasoning_unclosed": 1.0 if rule is ReasoningRule.UNCLOSED else 0.0,
    }


def _code(judgement: ItemJudgement, reward: Reward) -> Components:
    fmt, tests = judgement.format, judgement.tests
    if fmt is None or tests is None:
        return {}
    components = {
        "format": fmt.format,
        "thinking": fmt.thinking,
        "tests_total": float(tests.total),
        "tests_skipped": float(tests.skipped),
    }
    if judgement.judged and reward.answer is not None:
        components.update(
            tests_passed=float(tests.passed),
            pass_fraction=tests.passed / tests.total if tests.total else 0.0,
            answer=reward.answer,
        )
    return components


def _grade(judgement: ItemJudgement, reward: Reward) -> Components:
    if judgement.target is None:
        return {}
    components = {"reference": judgement.target}
    if judgement.grade is not None:
        components["score"] = judgement.grade
    return components


def _rubric(judgement: ItemJudgement, reward: Reward) -> Components:
    if judgement.grade is None or judgement.target is None:
        return {}
    return {"score": judgement.grade, "reference": judgement.target}


_COMPONENTS: dict[Task, Callable[[ItemJudgement, Reward], Components]] = {
    Task.MATH: _math,
    Task.CODE: _code,
    Task.GRADE: _grade,
    Task.RUBRIC: _rubric,
}
