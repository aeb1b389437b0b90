"""The FastAPI app factory: the app, its middleware, its routers and its lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError

from services.admission import Saturated
from services.api import attach_routers
from services.api.openapi import batch_openapi
from services.api.responses import JSONResponse, invalid_request, saturated
from services.composition import build_backends
from services.metrics import Metrics
from services.middleware import BodyLimitMiddleware, MetricsMiddleware
from services.settings import Settings
from services.version import VERSION


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with build_backends(settings, metrics, canaries=True, admission=True) as backends:
            app.state.backends = backends
            yield

    app = FastAPI(
        title="reward-verifier",
        version=VERSION,
        description="Batched reward verification for RL training: math answers, "
        "sandboxed code and an LLM verifier.",
        lifespan=lifespan,
        default_response_class=JSONResponse,
    )
    app.state.settings = settings
    app.state.metrics = metrics
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(Saturated, saturated)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    attach_routers(app)
    app.openapi = batch_openapi(app)  # type: ignore[method-assign]
    return app


def create_app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory`` and multi-worker serving."""
    return create_app(Settings())
