"""The math judge: extract the final answer, compare it with the reference's, score format.

Seed 001's rule: the answer is correct when the checker finds it equal to the reference's
final answer. No answer found, a wrong one, or one the checker gave up on (status
'timeout'/'error') is not accepted. A reference that holds no answer (empty, a control
character, nothing that reads as one: :mod:`services.tasks.math.reference`) judges nothing:
the item is an error with the reason, and earns no reward. The answer is searched only in
the text the completion commits to (:mod:`services.mathcheck.extraction`): after its
reasoning block, if it has one.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from services.domain import Judge, Status, Task
from services.judgement import Judgement, unjudged
from services.mathcheck.checker import Checker, MathVerdict, Outcome
from services.mathcheck.extraction import (
    Committed,
    Extraction,
    ExtractionMethod,
    ExtractionPolicy,
    ReasoningRule,
    committed,
    extract_answer,
    reference_answer,
)
from services.rewards.format_reward import score_format
from services.tasks.judging import BatchContext, Entry, items_of, judge_each
from services.tasks.math.evidence import MathEvidence, Unmarked
from services.tasks.math.reference import reference_problem
from services.tasks.math.wire import MathItem
from services.tasks.policy import ScoringPolicy
from services.verifier.answer_bearing import answer_bearing, normalise

# Only the end of a long committed text is searched for an unmarked answer.
UNMARKED_TAIL_CHARS = 20_000
# The tags of a reasoning block, taken out before its answer is searched for.
_REASONING_TAG = re.compile(
    r"<\s*/?\s*(?:think|thinking|reasoning|thought|reflection)\s*>|<\|\s*(?:begin|end)_of_thought"
    r"\s*\|>",
    re.IGNORECASE,
)


class MathJudge:
    def __init__(self, checker: Checker) -> None:
        """``checker``: the service's :class:`~services.tasks.math.workers.MathWorkers`
        (each item judged whole in a worker process), or a :class:`MathChecker` (items
        judged here, its symbolic leaves in its pool: the workers themselves, tests)."""
        self._checker = checker

    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        from services.tasks.math.workers import MathJob, MathWorkers

        if isinstance(self._checker, MathWorkers):
            # Every item's whole work in the workers, each under its own deadline of
            # compute: no batch budget, which would only turn waiting into timeouts.
            policy = context.policy
            items = items_of(entries, MathItem)
            jobs = [_job(item, policy, MathJob) for item in items]
            judged = await self._checker.judge(jobs)
            return [
                replace(judgement, index=entry.index, id=item.id)
                for entry, item, judgement in zip(entries, items, judged, strict=True)
            ]
        # Each request may keep twice as many symbolic comparisons in flight as there are
        # workers: enough to keep them busy, few enough that requests interleave fairly.
        gate = asyncio.Semaphore(2 * self._checker.workers)

        async def one(index: int, item: MathItem) -> Judgement[MathEvidence]:
            return await self.judge_item(index, item, context.policy, gate)

        return await judge_each(entries, context, MathItem, one)

    async def judge_item(
        self,
        index: int,
        item: MathItem,
        policy: ScoringPolicy,
        gate: asyncio.Semaphore | None = None,
    ) -> Judgement[MathEvidence]:
        return await self.judge_text(
            index,
            item.id,
            item.reference,
            item.completion,
            policy.math.extraction,
            policy.math.answer_after_reasoning,
            policy.min_thinking_words,
            gate,
        )

    async def judge_text(
        self,
        index: int,
        item_id: str | int | None,
        label: str,
        completion: str,
        policy: ExtractionPolicy,
        after_reasoning: bool,
        min_thinking_words: int,
        gate: asyncio.Semaphore | None = None,
    ) -> Judgement[MathEvidence]:
        """One item's judgement from its parts (what a worker is sent)."""
        reference = reference_answer(label)
        problem = reference_problem(label, reference)
        if problem is not None:
            # A label that holds no answer cannot judge one: no verdict, and the reason.
            return unjudged(index, item_id, Task.MATH, Status.ERROR, f"the reference {problem}")
        scope = committed(completion, after_reasoning)
        searched = scope.text(completion)
        extraction = (
            extract_answer(searched, policy)
            if searched is not None
            else Extraction(None, ExtractionMethod.NONE)
        )
        status, accepted, detail = Status.OK, False, _no_answer(scope, policy)
        unmarked: Unmarked | None = None
        unanswered: str | None = None
        if extraction.answer is not None:
            verdict = await self._checker.check(reference, extraction.answer, gate)
            status, outcome = _outcome(verdict)
            accepted = verdict.equal
            where = "after the reasoning block: " if scope.rule is ReasoningRule.AFTER_BLOCK else ""
            detail = f"{outcome} ({where}answer from {extraction.method.value})"
        else:
            unmarked, unanswered = _unmarked(completion, scope, searched, reference)
            if unmarked is not None:
                verdict = await self._checker.check(reference, unmarked.answer, gate)
                status, outcome = _outcome(verdict)
                unmarked = replace(unmarked, accepted=verdict.equal)
                detail = f"{detail}; {_unmarked_detail(unmarked, outcome)}"
        evidence = MathEvidence(
            answer=extraction.answer,
            marked=extraction.marked,
            reference=reference,
            format=score_format(completion, min_thinking_words),
            committed=scope,
            accepted=accepted,
            unmarked=unmarked,
            unanswered=unanswered,
        )
        return Judgement(
            index=index,
            id=item_id,
            task=Task.MATH,
            status=status,
            judge=Judge.RULE,
            detail=detail,
            evidence=evidence,
            correct=accepted,
        )


def _job(item: MathItem, policy: ScoringPolicy, job: Any) -> Any:
    return job(
        item.reference,
        item.completion,
        policy.math.extraction,
        policy.math.answer_after_reasoning,
        policy.min_thinking_words,
    )


def _unmarked(
    completion: str, scope: Committed, searched: str | None, reference: str
) -> tuple[Unmarked | None, str | None]:
    """The answer given without a marker in the committed text, else one written only
    inside the reasoning block (not yet judged); else why there is none."""
    reason = None
    if searched is not None:
        bearing = answer_bearing(normalise(searched[-UNMARKED_TAIL_CHARS:]), reference)
        if bearing.answer is not None:
            return Unmarked(bearing.answer, bearing.shown, bearing.reason, False, False), None
        reason = bearing.reason
    if scope.rule in (ReasoningRule.AFTER_BLOCK, ReasoningRule.UNCLOSED):
        reasoning = completion[: scope.start] if scope.start is not None else completion
        reasoning = _REASONING_TAG.sub(" ", reasoning[-UNMARKED_TAIL_CHARS:])
        inside = extract_answer(reasoning, ExtractionPolicy.MARKED)
        if inside.answer is not None:
            bearing = answer_bearing(inside.answer, reference)
            if bearing.answer is not None:
                return Unmarked(bearing.answer, bearing.shown, bearing.reason, True, False), None
    return None, reason


def _unmarked_detail(unmarked: Unmarked, outcome: str) -> str:
    where = "inside the reasoning block only" if unmarked.hidden else "without a marker"
    if unmarked.accepted:
        credit = "not credited: mark the final answer to earn the correct reward"
    else:
        credit = "the wrong-answer reward, as if it were marked"
    return f"an answer given {where}, {unmarked.answer[:80]!r}, is {outcome}: {credit}"


def _no_answer(scope: Committed, policy: ExtractionPolicy) -> str:
    if scope.rule is ReasoningRule.UNCLOSED:
        return (
            "no final answer: the reasoning block never closes (a truncated completion; "
            f"{policy.value} extraction)"
        )
    where = " after the reasoning block" if scope.rule is ReasoningRule.AFTER_BLOCK else ""
    return f"no final answer found{where} ({policy.value} extraction)"


def _outcome(verdict: MathVerdict) -> tuple[Status, str]:
    if verdict.outcome is Outcome.EQUAL:
        return Status.OK, f"correct ({verdict.detail})"
    if verdict.outcome is Outcome.DIFFERENT:
        return Status.OK, f"wrong ({verdict.detail})"
    # The answer itself made the checker give up: it is not accepted, and the status says
    # the verdict was not a normal one.
    status = Status.TIMEOUT if verdict.outcome is Outcome.TIMEOUT else Status.ERROR
    return status, f"not judged: {verdict.detail}"
