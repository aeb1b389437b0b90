"""What routes take from the request: the settings, the scorer, the API key check and the
batch envelope. The app factory puts ``settings``, ``metrics`` and (in its lifespan)
``backends`` on ``app.state``."""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any

import orjson
from fastapi import Depends, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import ValidationError

from services.composition import Backends
from services.contract.protocol import BatchEnvelope
from services.metrics import Metrics
from services.scoring import Scorer
from services.settings import Settings

_bearer = HTTPBearer(auto_error=False)


def app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def app_metrics(request: Request) -> Metrics:
    metrics: Metrics = request.app.state.metrics
    return metrics


def app_backends(request: Request) -> Backends:
    started: Backends = request.app.state.backends
    return started


def app_scorer(request: Request) -> Scorer:
    return app_backends(request).scorer


def require_key(
    settings: Annotated[Settings, Depends(app_settings)],
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """401 unless the request carries the configured bearer key (when one is set)."""
    if settings.api_key is None:
        return
    expected = settings.api_key.get_secret_value()
    if credentials is None or not secrets.compare_digest(
        credentials.credentials.encode(), expected.encode()
    ):
        raise HTTPException(
            status_code=401,
            detail="missing or invalid API key",
            headers={"WWW-Authenticate": "Bearer"},
        )


Authorized = Depends(require_key)


async def envelope(
    request: Request, settings: Annotated[Settings, Depends(app_settings)]
) -> BatchEnvelope:
    """The batch body, parsed here so that items are validated one by one later."""
    body = await request.body()
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise RequestValidationError(
            [{"loc": ("body",), "msg": f"body is not valid JSON: {exc}", "type": "json"}]
        ) from exc
    if _rounded_reference(data):
        # orjson reads an integer past 64 bits as a float, which would change a reference's
        # digits; the standard parser keeps every integer exact.
        data = json.loads(body)
    try:
        parsed = BatchEnvelope.model_validate(data)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        ) from exc
    if len(parsed.items) > settings.max_batch_items:
        raise RequestValidationError(
            [
                {
                    "loc": ("body", "items"),
                    "msg": f"batch has {len(parsed.items)} items; "
                    f"at most {settings.max_batch_items} are allowed",
                    "type": "too_long",
                }
            ]
        )
    return parsed


# orjson's integers end here: a larger one is read as a float.
_EXACT_INT_LIMIT = 2**63


def _rounded_reference(data: Any) -> bool:
    """An item's reference may be an integer orjson read as a float (an integral float of
    64 bits or more; a float written so is read the same by either parser)."""
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return False
    return any(
        isinstance(item, dict)
        and isinstance(value := item.get("reference"), float)
        and abs(value) >= _EXACT_INT_LIMIT
        and value.is_integer()
        for item in items
    )
