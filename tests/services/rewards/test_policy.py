"""The reward policy on the seeds' formulas, in-process: judgements in, rewards out."""

from __future__ import annotations

import pytest

from services.judgement import ItemJudgement, PassCount, VerifierView
from services.protocol import Judge, Mode, RewardOptions, Status, Task
from services.rewards.format_reward import FormatScore
from services.rewards.policy import NO_REWARD, RewardPolicy

SEED_001 = RewardPolicy.from_options(RewardOptions())  # +1 correct, -1 wrong, -0.5 none
STRICT_FORMAT = FormatScore(format=1.0, thinking=0.0, thinking_words=30)
NO_FORMAT = FormatScore(format=0.0, thinking=-1.0, thinking_words=0)


def math(
    answer: str | None = "4",
    accepted: bool = False,
    fmt: FormatScore = STRICT_FORMAT,
    view: VerifierView | None = None,
    judged: bool = True,
) -> ItemJudgement:
    return ItemJudgement(
        index=0,
        id=None,
        task=Task.MATH,
        status=Status.OK,
        judge=Judge.RULE,
        detail="",
        judged=judged,
        accepted=accepted,
        answer=answer,
        reference="4",
        format=fmt,
        verifier=view,
    )


def verified(score: float, best_effort: bool = False) -> VerifierView:
    return VerifierView("4", best_effort, probability=score, label_mass=None, score=score)


def test_seed_001_binary_reward() -> None:
    assert SEED_001.reward(math(accepted=True)).value == 1.0
    assert SEED_001.reward(math(accepted=False)).value == -1.0
    assert SEED_001.reward(math(answer=None)).value == -0.5


def test_format_terms_are_weighted_into_the_reward() -> None:
    policy = RewardPolicy.from_options(
        RewardOptions(answer_weight=2.0, format_weight=0.5, thinking_weight=0.25)
    )
    right = policy.reward(math(accepted=True, fmt=STRICT_FORMAT))
    assert right.value == pytest.approx(2.0 + 0.5) and right.answer == 1.0
    bare = policy.reward(math(accepted=False, fmt=NO_FORMAT))
    assert bare.value == pytest.approx(-2.0 - 0.25) and bare.answer == -1.0


def test_custom_scale() -> None:
    policy = RewardPolicy.from_options(RewardOptions(correct=2.0, wrong=0.0, no_answer=-3.0))
    assert [policy.reward(math(accepted=a)).value for a in (True, False)] == [2.0, 0.0]
    assert policy.reward(math(answer=None)).value == -3.0


@pytest.mark.parametrize(
    ("mode", "accepted", "p", "w", "score"),
    [
        # addon: correct if the rule accepts, else p * w
        (Mode.ADDON, True, 0.1, 1.0, 1.0),
        (Mode.ADDON, False, 0.8, 0.5, 0.4),
        # mixed: p * w + rule * (1 - w)
        (Mode.MIXED, True, 0.2, 0.5, 0.6),
        (Mode.MIXED, False, 0.8, 0.25, 0.2),
        # verifier_only: p
        (Mode.VERIFIER_ONLY, True, 0.3, 0.5, 0.3),
        (Mode.VERIFIER_ONLY, False, 0.9, 0.1, 0.9),
    ],
)
def test_tinyv_mode_scores(mode: Mode, accepted: bool, p: float, w: float, score: float) -> None:
    policy = RewardPolicy.from_options(RewardOptions(verifier_weight=w))
    assert policy.verifier_score(mode, accepted, p) == pytest.approx(score)


def test_verifier_scores_map_onto_the_reward_scale() -> None:
    # An answer the rule found runs from wrong (score 0) to correct (score 1).
    assert SEED_001.reward(math(view=verified(0.75))).value == pytest.approx(0.5)
    assert SEED_001.reward(math(view=verified(0.0))).value == -1.0
    assert SEED_001.reward(math(accepted=True, view=verified(1.0))).value == 1.0


def test_no_answer_floor_stands_only_when_the_verifier_rejects_too() -> None:
    # The rule found no answer: the verifier judged the best-effort one, from no_answer up.
    assert SEED_001.reward(math(answer=None, view=verified(0.0, True))).value == -0.5
    assert SEED_001.reward(math(answer=None, view=verified(0.6, True))).value == pytest.approx(
        -0.5 + 1.5 * 0.6
    )
    assert SEED_001.reward(math(answer=None, view=verified(1.0, True))).value == 1.0


def test_a_verdict_that_fell_through_keeps_its_answer_but_earns_nothing() -> None:
    reward = SEED_001.reward(math(accepted=True, judged=False))
    assert (reward.value, reward.answer) == (None, 1.0)


def code(
    passed: int, total: int, program: str | None = "print(1)", judged: bool = True
) -> ItemJudgement:
    return ItemJudgement(
        index=0,
        id=None,
        task=Task.CODE,
        status=Status.OK,
        judge=Judge.RULE,
        detail="",
        judged=judged,
        answer=program,
        format=STRICT_FORMAT,
        tests=PassCount(passed, total),
    )


def test_seed_003_code_reward() -> None:
    # pass fraction * base weight, plus perfect bonus * perfect weight when all pass
    assert SEED_001.reward(code(2, 4)).value == pytest.approx(0.5)
    assert SEED_001.reward(code(3, 3)).value == pytest.approx(2.0)
    assert SEED_001.reward(code(0, 3)).value == 0.0
    policy = RewardPolicy.from_options(
        RewardOptions(base_weight=2.0, perfect_bonus=0.5, perfect_weight=3.0)
    )
    assert policy.reward(code(1, 4)).value == pytest.approx(0.5)
    assert policy.reward(code(4, 4)).value == pytest.approx(2.0 + 1.5)


def test_code_format_terms_and_empty_completions() -> None:
    policy = RewardPolicy.from_options(RewardOptions(format_weight=0.5, empty_code_reward=-0.7))
    assert policy.reward(code(1, 2)).value == pytest.approx(0.5 + 0.5)
    empty = policy.reward(code(0, 2, program=None))
    assert empty.value == pytest.approx(-0.7 + 0.5) and empty.answer == -0.7


def test_code_the_sandbox_could_not_run_gets_no_reward() -> None:
    assert SEED_001.reward(code(0, 2, judged=False)) == NO_REWARD


def critique(task: Task, grade: float | None, target: float, judged: bool = True) -> ItemJudgement:
    return ItemJudgement(
        index=0,
        id=None,
        task=task,
        status=Status.OK,
        judge=Judge.RULE,
        detail="",
        judged=judged,
        target=target,
        grade=grade,
    )


@pytest.mark.parametrize("task", [Task.GRADE, Task.RUBRIC])
def test_seed_004_grade_reward(task: Task) -> None:
    # (1 - |score - reference|) ** 2
    assert SEED_001.reward(critique(task, 0.7, 0.7)).value == 1.0
    assert SEED_001.reward(critique(task, 1.0, 0.0)).value == 0.0
    assert SEED_001.reward(critique(task, 0.5, 0.7)).value == pytest.approx(0.64)


def test_an_unreadable_grade_scores_zero_and_an_ungraded_rubric_nothing() -> None:
    assert SEED_001.reward(critique(Task.GRADE, None, 0.3)).value == 0.0
    assert SEED_001.reward(critique(Task.RUBRIC, None, 0.3, judged=False)) == NO_REWARD


def test_items_without_a_task_get_no_reward() -> None:
    invalid = ItemJudgement(0, None, None, Status.ERROR, Judge.NONE, "invalid", judged=False)
    assert SEED_001.reward(invalid) == NO_REWARD
