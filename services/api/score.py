"""The batch routes: ``/score``, and the typed shortcut of every task whose registry entry
has one (``/score/math``, ``/score/code``, ``/score/rubric``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import Response
from pydantic import BaseModel

from services.api.dependencies import Authorized, app_scorer, app_settings, envelope
from services.api.responses import BATCH_ERRORS, JSONResponse
from services.api.results import score_batch
from services.contract.protocol import TYPED_REQUESTS, BatchEnvelope, ScoreRequest, ScoreResponse
from services.domain import Task
from services.scoring import Scorer
from services.settings import Settings
from services.tasks.registry import entries

router = APIRouter()

# Above this many results the response is rendered on a worker thread: validating and
# writing 4,096 results takes 0.15-0.5 s of CPU, which on the event loop's thread would hold
# /health and every other request for that long (on a thread, the loop takes turns with it).
RENDER_ON_THREAD_ABOVE = 256

# The bodies the batch routes document; they parse their body themselves (see envelope).
BATCH_BODIES: tuple[type[BaseModel], ...] = (
    ScoreRequest,
    *(TYPED_REQUESTS[entry.name] for entry in entries() if entry.route is not None),
)


def _body_schema(model: type[BaseModel]) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}
            },
        }
    }


def _add_score_route(path: str, only: Task | None, body: type[BaseModel], what: str) -> None:
    async def route(
        envelope_: Annotated[BatchEnvelope, Depends(envelope)],
        scorer_: Annotated[Scorer, Depends(app_scorer)],
        settings: Annotated[Settings, Depends(app_settings)],
    ) -> Response:
        policy = envelope_.options.to_policy(settings.defaults)
        scored = await score_batch(scorer_, envelope_.items, policy, only=only)
        if len(scored.results) > RENDER_ON_THREAD_ABOVE:
            return await asyncio.to_thread(render, scored)
        return render(scored)

    router.post(
        path,
        response_model=ScoreResponse,
        dependencies=[Authorized],
        openapi_extra=_body_schema(body),
        responses=BATCH_ERRORS,
        summary=f"Score a batch of {what}",
        name=f"score_{only.value}" if only else "score",
    )(route)


def render(response: ScoreResponse) -> Response:
    """The bytes FastAPI would write for ``response`` as the route's response model, made
    here so that a large batch's can be made off the event loop."""
    return JSONResponse(response.model_dump(mode="json", by_alias=True))


_add_score_route("/score", None, ScoreRequest, "math, code and rubric items")
for _entry in entries():
    if _entry.route is not None:
        body = TYPED_REQUESTS[_entry.name]
        _add_score_route(_entry.route.path, _entry.name, body, _entry.route.summary)
