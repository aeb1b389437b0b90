"""How the LLM stage refines math verdicts with the served verifier (TinyV's semantics).

``addon`` asks about every answer the rule does not accept (wrong, none found, the rule
timed out or failed), ``mixed`` and ``verifier_only`` about every answer. The verifier sees
:func:`verifier_span` of the item: the answer-bearing span
(:mod:`services.verifier.answer_bearing`) of the answer the rule judged, marked or given
without a marker, normalised and cut to the answer itself; and the reference's final answer
the math judge extracted. A completion with no such span (no answer, a hedge, text that
only addresses the judge, an unclosed reasoning block with no answer marked in it) is never
shown: the rule verdict stands. Whatever the verifier was shown, its score maps onto
``[wrong, correct]``; for an answer only inside the reasoning block the verdict only caps
the rule's reward at what the same answer marked would earn (it never raises it), so hiding
never pays even where a weak verifier scores a marked right answer below the no-answer
reward. When the verifier cannot answer, the rule verdict stands and ``status``/
``detail`` say so (``verifier_only`` then gives no reward); nothing is silently rewarded.
"""

from __future__ import annotations

from dataclasses import replace

from services.domain import Judge, Mode, Status, VerdictSource
from services.echo import preview
from services.judgement import Judgement
from services.rewards.policy import needs_verifier
from services.tasks.entry import Ask, NotShown, Refused
from services.tasks.judging import TaskItem
from services.tasks.math.evidence import MathEvidence, VerifierView
from services.tasks.policy import ScoringPolicy
from services.verifier import VerifierJudgement, VerifyRequest
from services.verifier.answer_bearing import answer_bearing

UNCLOSED = "the reasoning block never closes (a truncated completion)"
# The verifier's score at which the answer counts as correct.
CORRECT_AT = 0.5

MathJudgement = Judgement[MathEvidence]


def _evidence(judgement: MathJudgement) -> MathEvidence:
    if judgement.evidence is None:
        raise ValueError(f"math item {judgement.index} has no evidence to refine")
    return judgement.evidence


def verifier_span(judgement: MathJudgement) -> str | Refused:
    """The answer to show the verifier: the answer-bearing span of the rule's own answer
    (so the verifier judges what the rule judged and ``extracted`` reports), else of the
    answer the completion gives without a marker; refused when there is none."""
    evidence = _evidence(judgement)
    if evidence.answer is not None:
        bearing = answer_bearing(evidence.answer, evidence.reference)
        if bearing.shown is None:
            return Refused(f"{bearing.reason}: {preview(evidence.answer, 80)!r}")
        return bearing.shown
    unmarked = evidence.unmarked
    if unmarked is not None:
        if unmarked.shown is None:
            return Refused(f"{unmarked.refusal}: {preview(unmarked.answer, 80)!r}")
        return unmarked.shown
    if evidence.committed.start is None:
        return Refused(UNCLOSED)
    return Refused(evidence.unanswered or "no answer in the completion")


def without_verifier(judgement: MathJudgement, reason: str) -> MathJudgement:
    """A math judgement the verifier is not asked about: the rule verdict stands (the
    no-answer reward where the rule found no answer), in every mode."""
    return replace(
        judgement,
        evidence=replace(_evidence(judgement), verifier_refusal=reason),
        detail=f"{judgement.detail}; not sent to the LLM verifier, no answer-bearing span "
        f"({reason}): rule verdict used",
    )


def with_verdict(
    judgement: MathJudgement,
    verdict: VerifierJudgement,
    answer: str,
    policy: ScoringPolicy,
) -> MathJudgement:
    """A math judgement refined by the verifier's verdict on ``answer``: the mode's score
    when the verifier answered, else the rule verdict, labelled (none in verifier_only)."""
    mode, source = policy.mode, policy.verdict_source
    evidence = _evidence(judgement)
    answered = evidence.answer is not None
    best_effort = f"the best-effort answer {answer[:80]!r} (unmarked)"
    saw = "" if answered else f"; verifier saw {best_effort}"
    if not verdict.ok or verdict.probability is None:
        reason = verdict.error or "no probability returned"
        # No verdict came back (none configured, or it failed): never say it saw the answer.
        unjudged = "" if answered else f"; {best_effort} was not judged by the verifier"
        if mode is Mode.VERIFIER_ONLY:
            return replace(
                judgement,
                status=Status.UNAVAILABLE,
                judge=Judge.NONE,
                judged=False,
                detail=f"{judgement.detail}{unjudged}; LLM verifier unavailable ({reason}), "
                "and mode 'verifier_only' has no fallback",
            )
        return replace(
            judgement,
            status=Status.UNAVAILABLE,
            detail=f"{judgement.detail}{unjudged}; LLM verifier unavailable ({reason}): "
            "rule verdict used",
        )
    probability = verdict.probability
    hidden = evidence.unmarked if evidence.unmarked and evidence.unmarked.hidden else None
    if hidden is not None:
        # What the same answer, marked, would score: the cap on the hidden one's reward.
        score = policy.reward.verifier_score(mode, hidden.accepted, probability)
        view = VerifierView(answer, True, probability, verdict.label_mass, score, capped=True)
        return replace(
            judgement,
            status=Status.OK,
            evidence=replace(evidence, verifier=view),
            detail=f"{judgement.detail}; verifier P(correct)={probability:.3f} on the answer "
            f"inside the reasoning block, {answer[:80]!r}: its reward is capped at what the "
            f"same answer marked would earn ({mode.value} score {score:.3f}), never raised",
        )
    score = policy.reward.verifier_score(mode, evidence.accepted, probability)
    mass = f", label mass {verdict.label_mass:.2f}" if verdict.label_mass is not None else ""
    said = (
        f"rubric score {probability:.2f}"
        if source is VerdictSource.RUBRIC
        else f"P(correct)={probability:.3f}{mass}"
    )
    view = VerifierView(
        shown=answer,
        best_effort=not answered,
        probability=probability,
        label_mass=verdict.label_mass,
        score=score,
    )
    return replace(
        judgement,
        status=Status.OK,
        judge=Judge.VERIFIER,
        evidence=replace(evidence, verifier=view),
        correct=score >= CORRECT_AT,
        detail=f"{judgement.detail}{saw}; verifier {said}; {mode.value} score {score:.3f}",
    )


class MathVerification:
    """The math task's hooks for the LLM stage (:class:`~services.tasks.entry.Verification`)."""

    def ask(self, judgement: MathJudgement, item: TaskItem, mode: Mode) -> Ask | NotShown | None:
        if not needs_verifier(mode, rule_correct=_evidence(judgement).accepted):
            return None
        span = verifier_span(judgement)
        if isinstance(span, Refused):
            return NotShown(without_verifier(judgement, span.reason))
        return Ask(VerifyRequest(item.prompt, _evidence(judgement).reference, span), span)

    def refined(
        self,
        judgement: MathJudgement,
        verdict: VerifierJudgement,
        ask: Ask,
        policy: ScoringPolicy,
    ) -> MathJudgement:
        return with_verdict(judgement, verdict, ask.shown, policy)
