"""The compatibility endpoints' adapters: ``/grade`` and OpenRLHF's ``/get_reward``.

Both send their answers through the scorer as ``/score`` items (``/get_reward``: math, or
code where the label is code test data) and translate each item's judgement (its verdict
and evidence) and reward into their own response shapes. The request's options are resolved
against the server's defaults here, once, as ``/score``'s are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from services.api.results import to_result
from services.codecheck.test_formats import looks_like_test_data
from services.contract.protocol import (
    ExtractionPolicy,
    GradeRequest,
    GradeResponse,
    RewardModelRequest,
    RewardModelResponse,
    RewardOptions,
)
from services.domain import Judge, Status, Task
from services.end_tokens import strip_end_tokens
from services.mathcheck.extraction import reference_answer
from services.scoring import Scored, Scorer
from services.tasks.math.evidence import MathEvidence
from services.tasks.policy import ServerDefaults
from services.tasks.registry import entry_of

# How a truncated prompt's tail is found in the query: by its first characters, trying a
# bounded number of places (a prompt of one repeated character would have thousands).
_HEAD_CHARS = 64
_MAX_CANDIDATES = 32


async def reward_model(
    scorer: Scorer,
    request: RewardModelRequest,
    defaults: ServerDefaults,
    end_tokens: Sequence[str] = (),
) -> RewardModelResponse:
    """OpenRLHF's remote RM: cut each response out of its query, drop its end tokens and
    score it against its label (math, or code when the label is code test data)."""
    labels = request.labels if request.labels is not None else [None] * len(request.query)
    items: list[dict[str, Any] | None] = []
    for query, prompt, label in zip(request.query, request.prompts, labels, strict=True):
        response = _response_of(query, prompt)
        items.append(_label_item(strip_end_tokens(response, end_tokens), label))
    policy = request.options.to_policy(defaults)
    scored = iter(await scorer.score_items([i for i in items if i is not None], policy))
    results = [next(scored) if item is not None else None for item in items]
    # OpenRLHF needs a number for every sample (it has no "not judged"): an unjudged one
    # gets the no-answer reward and counts in extra_logs["error"] (or "unavailable").
    unjudged = request.options.no_answer
    return RewardModelResponse(
        rewards=[
            r.reward.value if r is not None and r.reward.value is not None else unjudged
            for r in results
        ],
        scores=[_score(r) for r in results],
        extra_logs={key: [log(r) for r in results] for key, log in _EXTRA_LOGS.items()},
    )


def _response_of(query: str, prompt: str) -> str:
    """The response: what follows the prompt in the query. OpenRLHF cuts a prompt too long
    for its context from the left, so the query may start with a tail of the prompt."""
    if query.startswith(prompt):
        return query[len(prompt) :]
    head = query[:_HEAD_CHARS]
    start = prompt.find(head) if head else -1
    for _ in range(_MAX_CANDIDATES):
        if start == -1:
            break
        if query.startswith(prompt[start:]):
            return query[len(prompt) - start :]
        start = prompt.find(head, start + 1)
    return query


def _label_item(completion: str, label: Any) -> dict[str, Any] | None:
    """The /score item a label stands for; None where there is no label at all.

    Text that is not code test data, and numbers (datasets keep numeric answers as numbers,
    converted exactly by the math item), are math references; the math item and its judge
    make a boolean, NaN, an empty label or one with no answer in it an error for that
    sample."""
    if label is None:
        return None
    if isinstance(label, int | float) or (
        isinstance(label, str) and not looks_like_test_data(label)
    ):
        return {"task": Task.MATH.value, "completion": completion, "reference": label}
    # Code test data (a dataset's own format) or anything else: the code item's
    # validation converts it or says why it cannot.
    return {"task": Task.CODE.value, "language": "python", "completion": completion, "tests": label}


def _score(scored: Scored | None) -> float:
    """Correctness in [0, 1]: OpenRLHF's dynamic filtering reads it. A program's fraction of
    tests passed; a math answer's verifier score where the verifier judged it, else 1 when
    it is correct."""
    if scored is None or scored.reward.value is None or scored.judgement.task is None:
        return 0.0
    return entry_of(scored.judgement.task).score(scored.judgement)


def _no_answer(scored: Scored) -> bool:
    """The judge found no answer (as the item's task says: no math answer, no program)."""
    task = scored.judgement.task
    return task is not None and entry_of(task).no_answer(scored.judgement)


def _flag(test: Callable[[Scored], bool]) -> Callable[[Scored | None], float]:
    return lambda scored: 1.0 if scored is not None and test(scored) else 0.0


# One fixed set of keys, numbers only: OpenRLHF turns every value into a tensor and merges
# the samples' logs key by key, so text or a key missing from one sample breaks its step.
_EXTRA_LOGS: dict[str, Callable[[Scored | None], float]] = {
    "correct": _flag(lambda s: s.judgement.correct is True),
    "no_answer": _flag(_no_answer),
    "verifier": _flag(lambda s: s.judgement.judge is Judge.VERIFIER),
    "error": lambda s: 1.0 if s is None or s.judgement.status is Status.ERROR else 0.0,
    "unavailable": _flag(lambda s: s.judgement.status is Status.UNAVAILABLE),
    "timeout": _flag(lambda s: s.judgement.status is Status.TIMEOUT),
}


async def grade(scorer: Scorer, request: GradeRequest, defaults: ServerDefaults) -> GradeResponse:
    """One answer through the same path as a batch item, reported as its judgement's
    verdict."""
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
    ((judgement, reward),) = await scorer.score_items(
        [item], options.to_policy(defaults), only=Task.MATH
    )
    evidence = judgement.evidence if isinstance(judgement.evidence, MathEvidence) else None
    decided = judgement.judged and judgement.status in (Status.OK, Status.UNAVAILABLE)
    view = evidence.verifier if evidence is not None else None
    return GradeResponse(
        correct=judgement.correct if decided else None,
        status=judgement.status,
        method=Judge.RULE if judgement.judge is Judge.NONE else judgement.judge,
        probability=view.probability if view is not None else None,
        extracted_answer=to_result(judgement, reward).extracted,
        extracted_reference=(
            evidence.reference if evidence is not None else reference_answer(request.reference)
        ),
        explanation=judgement.detail,
    )
