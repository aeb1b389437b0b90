"""The LLM-verifier stage of a batch: one batched call for every item that needs it.

Runs after the rule judges. Math items go to the verifier as TinyV sends them: ``addon``
asks about every answer the rule does not accept (wrong, none found, the rule timed out or
failed), ``mixed`` and ``verifier_only`` about every answer. Where the rule found no marked
answer the verifier sees :func:`best_effort_answer`. Rubric items are graded. When the
verifier cannot answer, math items keep their rule verdict and say so in ``status``/
``detail``; nothing is silently rewarded.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.echo import preview
from services.mathcheck.extraction import extract_answer, reference_answer
from services.metrics import Metrics
from services.protocol import (
    AnyItem,
    ExtractionPolicy,
    Judge,
    MathItem,
    Mode,
    RewardOptions,
    RubricItem,
    ScoreResult,
    Status,
    VerdictSource,
)
from services.rewards.math_reward import RewardScale
from services.rewards.modes import answer_value, combined_score, needs_verifier
from services.verifier import (
    ErrorKind,
    RubricJudgement,
    RubricRequest,
    VerifierClient,
    VerifierJudgement,
    VerifyRequest,
    rubric_reward,
)

NOT_CONFIGURED = "no LLM verifier is configured (set VERIFIER_LLM_URL)"
_CRITIQUE_CHARS = 600
BEST_EFFORT_CHARS = 600

Item = AnyItem | None


def best_effort_answer(completion: str) -> str:
    """What the verifier judges: the extracted answer, else the completion's bounded tail."""
    answer = extract_answer(completion, ExtractionPolicy.LENIENT).answer
    if answer is not None:
        return answer[:BEST_EFFORT_CHARS]
    return completion.strip()[-BEST_EFFORT_CHARS:]


class VerifierStage:
    def __init__(
        self,
        client: VerifierClient | None,
        default_mode: Mode,
        metrics: Metrics,
        default_source: VerdictSource = VerdictSource.TINYV,
    ) -> None:
        self._client = client
        self._default_mode = default_mode
        self._default_source = default_source
        self._metrics = metrics

    async def apply(
        self, items: Sequence[Item], results: list[ScoreResult], options: RewardOptions
    ) -> list[ScoreResult]:
        mode = options.mode or self._default_mode
        source = options.verdict_source or self._default_source
        math_jobs: list[int] = []
        rubric_jobs: list[int] = []
        for index, (item, result) in enumerate(zip(items, results, strict=True)):
            if isinstance(item, RubricItem):
                rubric_jobs.append(index)
            elif isinstance(item, MathItem) and self._wants_verifier(mode, result):
                math_jobs.append(index)
        updated = list(results)
        if math_jobs:
            maths = [_math(items[i]) for i in math_jobs]
            answers = [best_effort_answer(item.completion) for item in maths]
            requests = [
                VerifyRequest(item.prompt, reference_answer(item.reference), answer)
                for item, answer in zip(maths, answers, strict=True)
            ]
            judgements = await self._judge(requests, source)
            for index, answer, judgement in zip(math_jobs, answers, judgements, strict=True):
                updated[index] = _with_verdict(
                    results[index], judgement, answer, mode, source, options
                )
                outcome = "judged" if judgement.ok else "fallback"
                self._metrics.verifier_items.labels(mode=mode.value, outcome=outcome).inc()
                if judgement.ok:
                    self._metrics.verifier_cache_lookup("verdict", judgement.cached)
        if rubric_jobs:
            rubric_items = [items[i] for i in rubric_jobs]
            grades = await self._grade([_rubric_request(item) for item in rubric_items])
            for index, item, grade in zip(rubric_jobs, rubric_items, grades, strict=True):
                assert isinstance(item, RubricItem)
                updated[index] = _with_grade(results[index], item, grade)
                outcome = "judged" if grade.ok else "fallback"
                self._metrics.verifier_items.labels(mode="rubric", outcome=outcome).inc()
                if grade.ok:
                    self._metrics.verifier_cache_lookup("rubric", grade.cached)
        return updated

    def _wants_verifier(self, mode: Mode, result: ScoreResult) -> bool:
        if mode is Mode.RULE or result.reward is None:
            return False
        if needs_verifier(mode, rule_correct=_rule_accepted(result)):
            return True
        # addon and the rule already accepted the answer: the verifier is not asked.
        self._metrics.verifier_items.labels(mode=mode.value, outcome="skipped").inc()
        return False

    async def _judge(
        self, requests: list[VerifyRequest], source: VerdictSource
    ) -> list[VerifierJudgement]:
        if self._client is None:
            return [VerifierJudgement(None, error=f"unavailable: {NOT_CONFIGURED}")] * len(requests)
        return await self._client.judge(
            requests, "rubric" if source is VerdictSource.RUBRIC else "tinyv"
        )

    async def _grade(self, requests: list[RubricRequest]) -> list[RubricJudgement]:
        if self._client is None:
            return [RubricJudgement(None, error=f"unavailable: {NOT_CONFIGURED}")] * len(requests)
        return await self._client.grade_rubric(requests)


def _math(item: Item) -> MathItem:
    assert isinstance(item, MathItem)
    return item


def _rule_accepted(result: ScoreResult) -> bool:
    return result.status is Status.OK and result.components.get("correct") == 1.0


def _rubric_request(item: Item) -> RubricRequest:
    assert isinstance(item, RubricItem)
    return RubricRequest(item.prompt, item.completion, item.rubric)


def _with_verdict(
    result: ScoreResult,
    judgement: VerifierJudgement,
    answer: str,
    mode: Mode,
    source: VerdictSource,
    options: RewardOptions,
) -> ScoreResult:
    answered = result.components.get("no_answer") != 1.0
    saw = "" if answered else f"; verifier saw the best-effort answer {preview(answer, 80)!r}"
    if not judgement.ok or judgement.probability is None:
        reason = judgement.error or "no probability returned"
        if mode is Mode.VERIFIER_ONLY:
            return result.model_copy(
                update={
                    "status": Status.UNAVAILABLE,
                    "reward": None,
                    "judge": Judge.NONE,
                    "detail": f"{result.detail}{saw}; LLM verifier unavailable ({reason}), and "
                    "mode 'verifier_only' has no fallback",
                }
            )
        return result.model_copy(
            update={
                "status": Status.UNAVAILABLE,
                "detail": f"{result.detail}{saw}; LLM verifier unavailable ({reason}): "
                "rule verdict used",
            }
        )
    rule_correct = _rule_accepted(result)
    probability = judgement.probability
    score = combined_score(mode, rule_correct, probability, options.verifier_weight)
    scale = RewardScale(options.correct, options.wrong, options.no_answer)
    value = answer_value(scale, score, answered)
    components = {
        **result.components,
        "rule_correct": 1.0 if rule_correct else 0.0,
        "verifier": probability,
        "verifier_label_mass": judgement.label_mass if judgement.label_mass is not None else 1.0,
        "verifier_best_effort": 0.0 if answered else 1.0,
        "score": score,
        "answer": value,
        "correct": 1.0 if score >= 0.5 else 0.0,
    }
    reward = (
        options.answer_weight * value
        + options.format_weight * components.get("format", 0.0)
        + options.thinking_weight * components.get("thinking", 0.0)
    )
    mass = f", label mass {judgement.label_mass:.2f}" if judgement.label_mass is not None else ""
    verdict = (
        f"rubric score {probability:.2f}"
        if source is VerdictSource.RUBRIC
        else f"P(correct)={probability:.3f}{mass}"
    )
    detail = f"{result.detail}{saw}; verifier {verdict}; {mode.value} score {score:.3f}"
    return result.model_copy(
        update={
            "status": Status.OK,
            "reward": reward,
            "judge": Judge.VERIFIER,
            "components": components,
            "extracted": result.extracted if answered else preview(answer),
            "detail": detail,
        }
    )


def _with_grade(result: ScoreResult, item: RubricItem, grade: RubricJudgement) -> ScoreResult:
    critique = grade.critique[-_CRITIQUE_CHARS:]
    if grade.ok and grade.score is not None:
        score, status, detail = grade.score, Status.OK, f"graded {grade.score:.2f}: {critique}"
    elif grade.error_kind is ErrorKind.BAD_RESPONSE:
        # The model answered but its grade cannot be read: that grade counts as 0.
        score, status = 0.0, Status.OK
        detail = f"unparseable grade scored 0 ({grade.error}): {critique}"
    else:
        return result.model_copy(
            update={
                "status": Status.UNAVAILABLE,
                "reward": None,
                "judge": Judge.NONE,
                "detail": f"rubric grading unavailable: {grade.error}",
            }
        )
    return result.model_copy(
        update={
            "status": status,
            "reward": rubric_reward(score, item.reference),
            "judge": Judge.VERIFIER,
            "components": {"score": score, "reference": item.reference},
            "detail": detail,
        }
    )
