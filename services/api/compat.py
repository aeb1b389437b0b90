"""Routes other tools call: ``/grade`` (one answer, for evaluation) and OpenRLHF's
remote reward model ``/get_reward``."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.exceptions import RequestValidationError
from fastapi.security import (
    HTTPAuthorizationCredentials,
    HTTPBasic,
    HTTPBasicCredentials,
    HTTPBearer,
)

from services.api import adapters
from services.api.dependencies import Authorized, app_scorer, app_settings, require_key
from services.api.responses import PARSED_BODY_ERRORS
from services.contract.protocol import (
    GradeRequest,
    GradeResponse,
    RewardModelRequest,
    RewardModelResponse,
)
from services.scoring import Scorer
from services.settings import Settings

router = APIRouter()
_bearer = HTTPBearer(auto_error=False)
_basic = HTTPBasic(auto_error=False)


def require_key_or_url_credentials(
    settings: Annotated[Settings, Depends(app_settings)],
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    basic: Annotated[HTTPBasicCredentials | None, Depends(_basic)],
) -> None:
    """The bearer key, or Basic credentials whose password is the key: OpenRLHF sends no
    headers of its own, but its HTTP client (aiohttp) turns credentials written in the URL
    (``http://openrlhf:KEY@host:8000/get_reward``) into a Basic header."""
    key = settings.api_key
    if (
        basic is not None
        and key is not None
        and secrets.compare_digest(basic.password.encode(), key.get_secret_value().encode())
    ):
        return
    require_key(settings, bearer)


@router.post(
    "/grade",
    response_model=GradeResponse,
    responses=PARSED_BODY_ERRORS,
    dependencies=[Authorized],
    summary="Grade one answer against a reference",
)
async def grade(
    request: GradeRequest,
    scorer: Annotated[Scorer, Depends(app_scorer)],
    settings: Annotated[Settings, Depends(app_settings)],
) -> GradeResponse:
    return await adapters.grade(scorer, request, settings.defaults)


@router.post(
    "/get_reward",
    response_model=RewardModelResponse,
    responses=PARSED_BODY_ERRORS,
    dependencies=[Depends(require_key_or_url_credentials)],
    summary="OpenRLHF remote reward model: {query, prompts, labels} -> rewards",
)
async def get_reward(
    request: RewardModelRequest,
    scorer: Annotated[Scorer, Depends(app_scorer)],
    settings: Annotated[Settings, Depends(app_settings)],
    end_token: Annotated[
        list[str] | None,
        Query(
            max_length=16,
            description="The tokenizer's end-of-sequence / padding texts, stripped from the "
            "end of each response along with the common ones (<|im_end|>, </s>, ...).",
        ),
    ] = None,
) -> RewardModelResponse:
    lengths = [len(request.query), len(request.prompts)]
    if request.labels is not None:
        lengths.append(len(request.labels))
    if len(set(lengths)) > 1:
        raise RequestValidationError(
            [
                {
                    "loc": ("body", "labels"),
                    "msg": "query, prompts and labels must have the same length "
                    f"({', '.join(map(str, lengths))})",
                    "type": "value_error",
                }
            ]
        )
    if len(request.query) > settings.max_batch_items:
        raise RequestValidationError(
            [{"loc": ("body", "query"), "msg": "too many items", "type": "too_long"}]
        )
    return await adapters.reward_model(scorer, request, settings.defaults, end_token or ())
