"""Score batches: validate each item on its own, judge it, and turn verdicts into rewards.

Items are scored concurrently. Nothing an item contains can fail the batch: a malformed
item, a pathological answer or an unavailable backend yields that item's result with an
explicit status and a reason, and every other item is scored as usual.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from typing import Any

from pydantic import TypeAdapter, ValidationError

from services.codecheck.scorer import CodeScorer
from services.echo import preview
from services.mathcheck.checker import MathChecker, MathVerdict, Outcome
from services.mathcheck.extraction import extract_answer, reference_answer
from services.metrics import Metrics
from services.protocol import (
    AnyItem,
    BatchSummary,
    CodeItem,
    ExtractionPolicy,
    GradeItem,
    GradeRequest,
    GradeResponse,
    Judge,
    MathItem,
    RewardModelRequest,
    RewardModelResponse,
    RewardOptions,
    ScoreItem,
    ScoreResponse,
    ScoreResult,
    Status,
    Task,
)
from services.rewards.format_reward import score_format
from services.rewards.grade_reward import grade_reward
from services.rewards.math_reward import FormatWeights, RewardScale, combine
from services.settings import Settings
from services.verification import VerifierStage

log = logging.getLogger(__name__)

_ANY_ITEM: TypeAdapter[AnyItem] = TypeAdapter(ScoreItem)


def unjudged(
    index: int, item_id: str | int | None, task: Task | None, status: Status, detail: str
) -> ScoreResult:
    """The result of an item no judge could decide: no reward, and the reason."""
    return ScoreResult(
        index=index,
        id=item_id,
        task=task,
        reward=None,
        status=status,
        judge=Judge.NONE,
        detail=detail,
    )


def describe_validation_error(error: ValidationError) -> str:
    """'field: reason; field: reason' — the first few problems of an invalid item."""
    parts = []
    for problem in error.errors()[:5]:
        where = ".".join(str(part) for part in problem["loc"]) or "item"
        parts.append(f"{where}: {problem['msg']}")
    return "; ".join(parts)


class Scorer:
    def __init__(
        self,
        settings: Settings,
        checker: MathChecker,
        metrics: Metrics,
        code: CodeScorer | None = None,
        verifier: VerifierStage | None = None,
    ) -> None:
        self._settings = settings
        self._checker = checker
        self._metrics = metrics
        self._code = code
        self._verifier = verifier or VerifierStage(None, settings.mode, metrics)

    async def score_batch(
        self, raw_items: list[Any], options: RewardOptions, *, only: Task | None = None
    ) -> ScoreResponse:
        """Score every item; ``only`` restricts the batch to one task (the typed routes),
        which items may then omit."""
        started = time.perf_counter()
        deadline = asyncio.get_running_loop().time() + self._settings.batch_timeout_s
        # Each request may keep twice as many symbolic comparisons in flight as there are
        # workers: enough to keep them busy, few enough that requests interleave fairly.
        gate = asyncio.Semaphore(2 * self._checker.workers)
        judged = await asyncio.gather(
            *(
                self._score_raw(index, raw, only, options, gate, deadline)
                for index, raw in enumerate(raw_items)
            )
        )
        items = [item for item, _ in judged]
        results = await self._verifier.apply(items, [result for _, result in judged], options)
        for result in results:
            task = result.task.value if result.task is not None else "invalid"
            self._metrics.items.labels(task=task, status=result.status.value).inc()
        rewards = [r.reward for r in results if r.reward is not None]
        summary = BatchSummary(
            items=len(results),
            by_status=dict(Counter(r.status.value for r in results)),
            mean_reward=sum(rewards) / len(rewards) if rewards else None,
            elapsed_s=round(time.perf_counter() - started, 6),
        )
        return ScoreResponse(results=results, summary=summary)

    async def _score_raw(
        self,
        index: int,
        raw: Any,
        only: Task | None,
        options: RewardOptions,
        gate: asyncio.Semaphore,
        deadline: float,
    ) -> tuple[AnyItem | None, ScoreResult]:
        item_id = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(item_id, str | int) or isinstance(item_id, bool):
            item_id = None
        if only is not None and isinstance(raw, dict):
            raw = {"task": only.value, **raw}
        try:
            item = _ANY_ITEM.validate_python(raw)
            if only is not None and item.task is not only:
                raise ValueError(f"this endpoint scores only '{only.value}' items")
        except (ValidationError, ValueError) as exc:
            reason = (
                describe_validation_error(exc) if isinstance(exc, ValidationError) else str(exc)
            )
            return None, unjudged(index, item_id, None, Status.ERROR, f"invalid item: {reason}")
        try:
            async with asyncio.timeout_at(deadline):
                return item, await self._score_item(index, item, options, gate)
        except TimeoutError:
            budget = self._settings.batch_timeout_s
            reason = f"batch time budget of {budget:g}s exhausted before this item was judged"
            return None, unjudged(index, item.id, item.task, Status.TIMEOUT, reason)
        except Exception as exc:  # a bug in one judge must not lose the other results
            log.exception("scoring item %d failed", index)
            reason = f"internal error while scoring: {type(exc).__name__}"
            return None, unjudged(index, item.id, item.task, Status.ERROR, reason)

    async def _score_item(
        self,
        index: int,
        item: AnyItem,
        options: RewardOptions,
        gate: asyncio.Semaphore,
    ) -> ScoreResult:
        if isinstance(item, MathItem):
            return await self.score_math(index, item, options, gate)
        if isinstance(item, GradeItem):
            return score_grade(index, item)
        if isinstance(item, CodeItem):
            if self._code is not None:
                return await self._code.score(index, item, options)
            reason = "code execution is not enabled on this server"
        else:
            reason = "waiting for the LLM verifier"  # replaced by the verifier stage
        return unjudged(index, item.id, item.task, Status.UNAVAILABLE, reason)

    async def score_math(
        self,
        index: int,
        item: MathItem,
        options: RewardOptions,
        gate: asyncio.Semaphore | None = None,
    ) -> ScoreResult:
        scale = RewardScale(options.correct, options.wrong, options.no_answer)
        weights = FormatWeights(
            options.answer_weight, options.format_weight, options.thinking_weight
        )
        fmt = score_format(item.completion, options.min_thinking_words)
        policy = options.extraction or self._settings.extraction
        extraction = extract_answer(item.completion, policy)
        components = {
            "format": fmt.format,
            "thinking": fmt.thinking,
            "thinking_words": float(fmt.thinking_words),
            # Whether the answer carried a final-answer marker (box, tag, ####, "answer is").
            "marked": float(extraction.marked),
        }
        status = Status.OK
        if extraction.answer is None:
            answer_value = scale.no_answer
            components.update(answer=answer_value, correct=0.0, no_answer=1.0)
            detail = f"no final answer found ({policy.value} extraction)"
        else:
            verdict = await self._checker.check(
                reference_answer(item.reference), extraction.answer, gate
            )
            status, answer_value, detail = _math_outcome(verdict, scale)
            components.update(answer=answer_value, correct=float(verdict.equal), no_answer=0.0)
            detail = f"{detail} (answer from {extraction.method.value})"
        return ScoreResult(
            index=index,
            id=item.id,
            task=Task.MATH,
            reward=combine(answer_value, fmt, weights),
            status=status,
            judge=Judge.RULE,
            components=components,
            extracted=preview(extraction.answer),
            detail=detail,
        )

    async def reward_model(self, request: RewardModelRequest) -> RewardModelResponse:
        """OpenRLHF's remote RM: cut each response out of its query and score it as math."""
        items = [
            {
                "completion": query[len(prompt) :] if query.startswith(prompt) else query,
                "reference": label,
            }
            for query, prompt, label in zip(
                request.query, request.prompts, request.labels, strict=True
            )
        ]
        response = await self.score_batch(items, request.options, only=Task.MATH)
        results = response.results
        return RewardModelResponse(
            # OpenRLHF needs a number for every query; the status log says which were not
            # judged, so a 0.0 there is visible rather than silent.
            rewards=[r.reward if r.reward is not None else 0.0 for r in results],
            scores=[r.components.get("correct", 0.0) for r in results],
            extra_logs={
                "status": [r.status.value for r in results],
                "correct": [r.components.get("correct") for r in results],
                "no_answer": [r.components.get("no_answer") for r in results],
            },
        )

    async def grade(self, request: GradeRequest) -> GradeResponse:
        """One answer through the same path as a batch item, reported as a verdict."""
        item = {
            "prompt": request.question,
            "completion": request.answer,
            "reference": request.reference,
        }
        options = RewardOptions(
            mode=request.mode,
            verdict_source=request.verdict_source,
            verifier_weight=request.verifier_weight,
            extraction=request.extraction or ExtractionPolicy.LENIENT,
        )
        result = (await self.score_batch([item], options, only=Task.MATH)).results[0]
        judged = result.reward is not None and result.status in (Status.OK, Status.UNAVAILABLE)
        correct = result.components.get("correct") == 1.0 if judged else None
        return GradeResponse(
            correct=correct,
            status=result.status,
            method=Judge.RULE if result.judge is Judge.NONE else result.judge,
            probability=result.components.get("verifier"),
            extracted_answer=result.extracted,
            extracted_reference=reference_answer(request.reference),
            explanation=result.detail,
        )


def score_grade(index: int, item: GradeItem) -> ScoreResult:
    """Seed 004's RRM-training reward on the policy's own critique (no model is asked)."""
    graded = grade_reward(item.completion, item.reference)
    components = {"reference": item.reference}
    if graded.score is not None:
        components["score"] = graded.score
    return ScoreResult(
        index=index,
        id=item.id,
        task=Task.GRADE,
        reward=graded.reward,
        status=Status.OK,
        judge=Judge.RULE,
        components=components,
        extracted=preview(graded.grade_text),
        detail=graded.reason,
    )


def _math_outcome(verdict: MathVerdict, scale: RewardScale) -> tuple[Status, float, str]:
    if verdict.outcome is Outcome.EQUAL:
        return Status.OK, scale.correct, f"correct ({verdict.detail})"
    if verdict.outcome is Outcome.DIFFERENT:
        return Status.OK, scale.wrong, f"wrong ({verdict.detail})"
    # The answer itself made the checker give up: it earns the wrong-answer reward, and the
    # status says the verdict was not a normal one.
    status = Status.TIMEOUT if verdict.outcome is Outcome.TIMEOUT else Status.ERROR
    return status, scale.wrong, f"not judged: {verdict.detail}"
