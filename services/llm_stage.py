"""The LLM stage of a batch: the served verifier refines the math judges' verdicts.

Runs after the task judges, with one batched call for every math item that needs it. Math
items go to the verifier as TinyV sends them: ``addon`` asks about every answer the rule
does not accept (wrong, none found, the rule timed out or failed), ``mixed`` and
``verifier_only`` about every answer. The verifier sees :func:`verifier_span` of the item:
the answer the rule judged (the one ``extracted`` reports), else a best-effort one from the
text the completion commits to, and the reference's final answer the math judge extracted.
A span with no answer in it (:mod:`services.verifier.answer_bearing`) is never shown: the
rule verdict stands, which is the no-answer reward where the rule found no answer. The
verifier's probability is combined with the rule verdict by the request's reward policy;
when it cannot answer, the rule verdict stands and ``status``/``detail`` say so
(``verifier_only`` then gives no reward); nothing is silently rewarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from services.echo import preview
from services.judgement import ItemJudgement, VerifierView
from services.mathcheck.extraction import extract_answer
from services.metrics import Metrics
from services.protocol import (
    AnyItem,
    ExtractionPolicy,
    Judge,
    MathItem,
    Mode,
    RewardOptions,
    Status,
    VerdictSource,
)
from services.rewards.policy import RewardPolicy, needs_verifier
from services.verifier import VerifierClient, VerifierJudgement, VerifyRequest
from services.verifier.answer_bearing import refusal

NOT_CONFIGURED = "no LLM verifier is configured (set VERIFIER_LLM_URL)"
BEST_EFFORT_CHARS = 600
UNCLOSED = "the reasoning block never closes (a truncated completion)"


def best_effort_answer(text: str) -> str:
    """The lenient extraction of ``text``, else its bounded tail (TinyV's best effort)."""
    answer = extract_answer(text, ExtractionPolicy.LENIENT).answer
    if answer is not None:
        return answer[:BEST_EFFORT_CHARS]
    return text.strip()[-BEST_EFFORT_CHARS:]


@dataclass(frozen=True, slots=True)
class Refused:
    """Why the verifier is not asked about an item: its completion bears no answer."""

    reason: str


def verifier_span(judgement: ItemJudgement, completion: str) -> str | Refused:
    """The answer to show the verifier: the rule's own answer where it found one (so the
    verifier judges what the rule judged and ``extracted`` reports), else a best-effort one
    from the text the reasoning rule left; refused when it bears no answer."""
    if judgement.answer is not None:
        shown = judgement.answer[:BEST_EFFORT_CHARS]
    else:
        committed = judgement.committed
        text = committed.text(completion) if committed is not None else completion
        if text is None:
            return Refused(UNCLOSED)
        shown = best_effort_answer(text)
    reason = refusal(shown)
    if reason is not None:
        return Refused(f"{reason}: {preview(shown, 80)!r}")
    return shown


class LLMStage:
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

    @property
    def client(self) -> VerifierClient | None:
        return self._client

    async def refine(
        self,
        items: Sequence[AnyItem | None],
        judgements: list[ItemJudgement],
        options: RewardOptions,
        policy: RewardPolicy,
    ) -> list[ItemJudgement]:
        """The judgements, with the verifier's verdict on every math item the mode asks
        about; ``items`` are the request's items in order (None where one was invalid)."""
        mode = options.mode or self._default_mode
        source = options.verdict_source or self._default_source
        jobs = [
            (index, item)
            for index, item in enumerate(items)
            if isinstance(item, MathItem) and self._wants_verifier(mode, judgements[index])
        ]
        if not jobs:
            return judgements
        refined = list(judgements)
        asked: list[tuple[int, MathItem, str]] = []
        for index, item in jobs:
            span = verifier_span(judgements[index], item.completion)
            if isinstance(span, Refused):
                refined[index] = without_verifier(judgements[index], span.reason)
                self._metrics.verifier_items.labels(mode=mode.value, outcome="refused").inc()
            else:
                asked.append((index, item, span))
        if not asked:
            return refined
        requests = [
            VerifyRequest(item.prompt, _reference(judgements[index]), answer)
            for index, item, answer in asked
        ]
        verdicts = await self._judge(requests, source)
        for (index, _, answer), verdict in zip(asked, verdicts, strict=True):
            refined[index] = with_verdict(judgements[index], verdict, answer, mode, source, policy)
            outcome = "judged" if verdict.ok else "fallback"
            self._metrics.verifier_items.labels(mode=mode.value, outcome=outcome).inc()
            if verdict.ok:
                self._metrics.verifier_cache_lookup("verdict", verdict.cached)
        return refined

    def _wants_verifier(self, mode: Mode, judgement: ItemJudgement) -> bool:
        if mode is Mode.RULE or not judgement.judged:
            return False
        if needs_verifier(mode, rule_correct=judgement.accepted):
            return True
        # addon and the rule already accepted the answer: the verifier is not asked.
        self._metrics.verifier_items.labels(mode=mode.value, outcome="skipped").inc()
        return False

    async def _judge(
        self, requests: list[VerifyRequest], source: VerdictSource
    ) -> list[VerifierJudgement]:
        if self._client is None:
            return [VerifierJudgement(None, error=f"unavailable: {NOT_CONFIGURED}")] * len(requests)
        return await self._client.judge(requests, source)


def _reference(judgement: ItemJudgement) -> str:
    if judgement.reference is None:
        raise ValueError(f"math item {judgement.index} was judged without a reference")
    return judgement.reference


def without_verifier(judgement: ItemJudgement, reason: str) -> ItemJudgement:
    """A math judgement the verifier is not asked about: the rule verdict stands (the
    no-answer reward where the rule found no answer), in every mode."""
    return replace(
        judgement,
        verifier_refusal=reason,
        detail=f"{judgement.detail}; not sent to the LLM verifier, no answer-bearing span "
        f"({reason}): rule verdict used",
    )


def with_verdict(
    judgement: ItemJudgement,
    verdict: VerifierJudgement,
    answer: str,
    mode: Mode,
    source: VerdictSource,
    policy: RewardPolicy,
) -> ItemJudgement:
    """A math judgement refined by the verifier's verdict on ``answer``: the mode's score
    when the verifier answered, else the rule verdict, labelled (none in verifier_only)."""
    answered = judgement.answer is not None
    saw = "" if answered else f"; verifier saw the best-effort answer {preview(answer, 80)!r}"
    if not verdict.ok or verdict.probability is None:
        reason = verdict.error or "no probability returned"
        if mode is Mode.VERIFIER_ONLY:
            return replace(
                judgement,
                status=Status.UNAVAILABLE,
                judge=Judge.NONE,
                judged=False,
                detail=f"{judgement.detail}{saw}; LLM verifier unavailable ({reason}), and "
                "mode 'verifier_only' has no fallback",
            )
        return replace(
            judgement,
            status=Status.UNAVAILABLE,
            detail=f"{judgement.detail}{saw}; LLM verifier unavailable ({reason}): "
            "rule verdict used",
        )
    probability = verdict.probability
    score = policy.verifier_score(mode, judgement.accepted, probability)
    mass = f", label mass {verdict.label_mass:.2f}" if verdict.label_mass is not None else ""
    said = (
        f"rubric score {probability:.2f}"
        if source is VerdictSource.RUBRIC
        else f"P(correct)={probability:.3f}{mass}"
    )
    return replace(
        judgement,
        status=Status.OK,
        judge=Judge.VERIFIER,
        verifier=VerifierView(
            shown=answer,
            best_effort=not answered,
            probability=probability,
            label_mass=verdict.label_mass,
            score=score,
        ),
        detail=f"{judgement.detail}{saw}; verifier {said}; {mode.value} score {score:.3f}",
    )
