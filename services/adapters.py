"""The compatibility endpoints' adapters: ``/grade`` and OpenRLHF's ``/get_reward``.

Both send their answers through the scorer as ``/score`` math items and translate the
results into their own response shapes.
"""

from __future__ import annotations

from services.mathcheck.extraction import reference_answer
from services.protocol import (
    ExtractionPolicy,
    GradeRequest,
    GradeResponse,
    Judge,
    RewardModelRequest,
    RewardModelResponse,
    RewardOptions,
    Status,
    Task,
)
from services.scoring import Scorer


async def reward_model(scorer: Scorer, request: RewardModelRequest) -> RewardModelResponse:
    """OpenRLHF's remote RM: cut each response out of its query and score it as math."""
    items = [
        {
            "completion": query[len(prompt) :] if query.startswith(prompt) else query,
            "reference": label,
        }
        for query, prompt, label in zip(request.query, request.prompts, request.labels, strict=True)
    ]
    response = await scorer.score_batch(items, request.options, only=Task.MATH)
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


async def grade(scorer: Scorer, request: GradeRequest) -> GradeResponse:
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
    result = (await scorer.score_batch([item], options, only=Task.MATH)).results[0]
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
