"""Routes other tools call: ``/grade`` (one answer, for evaluation) and OpenRLHF's
remote reward model ``/get_reward``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.exceptions import RequestValidationError

from services import adapters
from services.api.dependencies import Authorized, app_scorer, app_settings
from services.api.responses import PARSED_BODY_ERRORS
from services.protocol import GradeRequest, GradeResponse, RewardModelRequest, RewardModelResponse
from services.scoring import Scorer
from services.settings import Settings

router = APIRouter()


@router.post(
    "/grade",
    response_model=GradeResponse,
    responses=PARSED_BODY_ERRORS,
    dependencies=[Authorized],
    summary="Grade one answer against a reference",
)
async def grade(
    request: GradeRequest, scorer: Annotated[Scorer, Depends(app_scorer)]
) -> GradeResponse:
    return await adapters.grade(scorer, request)


@router.post(
    "/get_reward",
    response_model=RewardModelResponse,
    responses=PARSED_BODY_ERRORS,
    dependencies=[Authorized],
    summary="OpenRLHF remote reward model: {query, prompts, labels} -> rewards",
)
async def get_reward(
    request: RewardModelRequest,
    scorer: Annotated[Scorer, Depends(app_scorer)],
    settings: Annotated[Settings, Depends(app_settings)],
) -> RewardModelResponse:
    if not len(request.query) == len(request.prompts) == len(request.labels):
        raise RequestValidationError(
            [
                {
                    "loc": ("body", "labels"),
                    "msg": "query, prompts and labels must have the same length "
                    f"({len(request.query)}, {len(request.prompts)}, {len(request.labels)})",
                    "type": "value_error",
                }
            ]
        )
    if len(request.query) > settings.max_batch_items:
        raise RequestValidationError(
            [{"loc": ("body", "query"), "msg": "too many items", "type": "too_long"}]
        )
    return await adapters.reward_model(scorer, request)
