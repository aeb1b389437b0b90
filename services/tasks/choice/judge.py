"""The choice judge: read the letter a completion commits to, compare it with the reference.

The letter is searched only after a closed reasoning block (:mod:`services.mathcheck.extraction`),
under the request's ``answer_after_reasoning``; the last marked letter counts: ``\\boxed{B}``,
``<answer>B</answer>``, ``answer: B`` / ``answer is (B)``; else a committed text that is a
letter alone (``B``, ``(B)``, ``B.``). A letter past the item's choices is no answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.domain import Judge, Status
from services.judgement import Judgement
from services.mathcheck.extraction import committed
from services.rewards.format_reward import FormatScore, score_format
from services.tasks.choice.wire import CHOICE, LETTERS, ChoiceItem
from services.tasks.judging import BatchContext, Entry, judge_each

_LETTER = r"\(?\s*([A-Za-z])\s*\)?"
_MARKED = re.compile(
    rf"\\boxed\s*\{{\s*{_LETTER}\s*\}}|<answer>\s*{_LETTER}\s*</answer>"
    rf"|\banswer\s*(?:is|:)\s*{_LETTER}(?![A-Za-z])",
    re.IGNORECASE,
)
_ALONE = re.compile(rf"^\s*{_LETTER}\s*[.:]?\s*$")


@dataclass(frozen=True, slots=True)
class ChoiceEvidence:
    answer: str | None  # the letter the completion commits to; None when it names none
    reference: str  # the right choice's letter
    format: FormatScore  # tag compliance and thinking length


def read_letter(text: str, choices: int) -> str | None:
    """The letter ``text`` answers with (upper case), or None; ``choices``: how many there
    are (0: any letter)."""
    marked = [next(g for g in m.groups() if g) for m in _MARKED.finditer(text)]
    alone = _ALONE.match(text)
    letter = marked[-1] if marked else alone.group(1) if alone else None
    if letter is None:
        return None
    letter = letter.upper()
    return letter if not choices or LETTERS.index(letter) < choices else None


class ChoiceJudge:
    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        policy = context.policy

        async def one(index: int, item: ChoiceItem) -> Judgement[ChoiceEvidence]:
            scope = committed(item.completion, policy.math.answer_after_reasoning)
            searched = scope.text(item.completion)
            answer = read_letter(searched, len(item.choices)) if searched is not None else None
            correct = answer == item.reference
            if answer is None:
                detail = "no choice letter found"
            else:
                verdict = "correct" if correct else "wrong"
                detail = f"{verdict}: answered {answer}, the right choice is {item.reference}"
            evidence = ChoiceEvidence(
                answer, item.reference, score_format(item.completion, policy.min_thinking_words)
            )
            return Judgement(
                index=index,
                id=item.id,
                task=CHOICE,
                status=Status.OK,
                judge=Judge.RULE,
                detail=detail,
                evidence=evidence,
                correct=correct,
            )

        return await judge_each(entries, context, ChoiceItem, one)
