"""Operations routes: liveness, readiness (what gates traffic) and Prometheus metrics."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from services.api.dependencies import app_backends, app_metrics, app_settings
from services.api.readiness import readiness
from services.api.responses import JSONResponse
from services.composition import Backends
from services.contract.protocol import HealthResponse, ReadyResponse
from services.metrics import Metrics
from services.settings import Settings
from services.version import VERSION

router = APIRouter()


@router.get("/health", response_model=HealthResponse, summary="Liveness")
async def health() -> HealthResponse:
    return HealthResponse(version=VERSION)


@router.get(
    "/ready",
    response_model=ReadyResponse,
    summary="Which backends work",
    responses={
        503: {
            "model": ReadyResponse,
            "description": "A required backend does not work, or a queue is full",
        }
    },
)
async def ready(
    settings: Annotated[Settings, Depends(app_settings)],
    started: Annotated[Backends, Depends(app_backends)],
) -> JSONResponse:
    body = await readiness(settings, started, load=True)
    return JSONResponse(body.model_dump(), status_code=200 if body.ready else 503)


@router.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def prometheus(metrics: Annotated[Metrics, Depends(app_metrics)]) -> Response:
    return Response(metrics.render(), media_type="text/plain; version=0.0.4")
