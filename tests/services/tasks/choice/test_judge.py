"""The choice judge in-process: the letter a completion commits to, its item's validation,
and the judgement it gives."""

from __future__ import annotations

import asyncio
import random

import pytest
from pydantic import ValidationError

from services.contract.protocol import Judge, RewardOptions, Status
from services.tasks.choice.judge import ChoiceJudge, read_letter
from services.tasks.choice.wire import CHOICE, ChoiceItem
from services.tasks.judging import BatchContext, Entry


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("The answer is \\boxed{B}.", "B"),
        ("<answer>c</answer>", "C"),
        ("Answer: (D)", "D"),
        ("so the answer is A, not B", "A"),
        ("(B)", "B"),
        ("  b.  ", "B"),
        ("first \\boxed{A}, then on reflection \\boxed{C}", "C"),
        ("I cannot tell.", None),
        ("Answer: E", None),  # past the four choices
    ],
)
def test_the_letter_a_completion_commits_to(text: str, letter: str | None) -> None:
    assert read_letter(text, 4) == letter


def test_any_letter_counts_when_the_item_lists_no_choices() -> None:
    assert read_letter("Answer: E", 0) == "E"


def test_the_item_reads_its_reference_as_a_letter_of_its_choices() -> None:
    item = ChoiceItem(task="choice", completion="x", reference="b", choices=["1", "2"])
    assert (item.task, item.reference) == (CHOICE, "B")
    with pytest.raises(ValidationError, match="names no choice: there are 2"):
        ChoiceItem(task="choice", completion="x", reference="C", choices=["1", "2"])
    with pytest.raises(ValidationError, match="not a letter"):
        ChoiceItem(task="choice", completion="x", reference="3")


def test_the_judge_decides_each_item_in_its_place() -> None:
    policy = RewardOptions().to_policy()
    items = [
        ChoiceItem(task="choice", id="r", completion="<think>A?</think>\\boxed{B}", reference="B"),
        ChoiceItem(task="choice", completion="Answer: A", reference="B"),
        ChoiceItem(task="choice", completion="<think>it is B", reference="B"),  # never closed
    ]
    entries = [Entry(index, item) for index, item in enumerate(items)]
    right, wrong, none = asyncio.run(
        ChoiceJudge().judge(entries, BatchContext(policy, deadline=1e12, budget_s=10.0))
    )
    assert (right.index, right.id, right.task, right.judge) == (0, "r", CHOICE, Judge.RULE)
    assert (right.status, right.correct, right.detail) == (
        Status.OK,
        True,
        "correct: answered B, the right choice is B",
    )
    assert (wrong.correct, wrong.detail) == (False, "wrong: answered A, the right choice is B")
    assert none.evidence is not None and none.evidence.answer is None
    assert (none.correct, none.detail) == (False, "no choice letter found")


# Completions that hedge: every letter at once, in the shapes the reader knows. None of them
# depends on the question, so none may beat the best constant letter over a dataset.
HEDGES = {
    "every letter boxed": "\\boxed{A} \\boxed{B} \\boxed{C} \\boxed{D}",
    "every letter in one box": "\\boxed{A, B, C, D}",
    "a disjunction": "The answer is A or B or C or D.",
    "every letter tagged": "".join(f"<answer>{letter}</answer>" for letter in "ABCD"),
    "a list alone": "A B C D",
    "every answer line": "Answer: A\nAnswer: B\nAnswer: C\nAnswer: D",
    "letters in the reasoning": "<think>A B C D</think>",
}


@pytest.mark.parametrize("hedge", list(HEDGES))
def test_a_hedge_earns_no_more_than_a_constant_letter_over_a_dataset(hedge: str) -> None:
    # 400 items, their right letters spread unevenly over four choices (seeded).
    rng = random.Random(7)
    references = rng.choices("ABCD", weights=[4, 3, 2, 1], k=400)
    items = [
        ChoiceItem(task="choice", completion=HEDGES[hedge], reference=r, choices=list("wxyz"))
        for r in references
    ]
    judged = asyncio.run(
        ChoiceJudge().judge(
            [Entry(i, item) for i, item in enumerate(items)],
            BatchContext(RewardOptions().to_policy(), deadline=1e12, budget_s=10.0),
        )
    )
    best_constant = max(references.count(letter) for letter in "ABCD")
    assert sum(j.correct is True for j in judged) <= best_constant
