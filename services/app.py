"""The FastAPI app factory. Routes only translate HTTP to calls on the Scorer."""

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any

import orjson
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import ORJSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sandbox import Sandbox, SandboxConfig, SandboxUnavailable
from services import compat
from services.codecheck.scorer import CodeScorer
from services.llm_stage import NOT_CONFIGURED, LLMStage
from services.mathcheck.checker import MathChecker
from services.mathcheck.pool import SymbolicPool
from services.metrics import Metrics
from services.middleware import BodyLimitMiddleware, MetricsMiddleware
from services.protocol import (
    BackendStatus,
    CodeScoreRequest,
    ErrorResponse,
    GradeRequest,
    GradeResponse,
    HealthResponse,
    MathScoreRequest,
    ReadyResponse,
    RewardModelRequest,
    RewardModelResponse,
    RewardOptions,
    RubricScoreRequest,
    ScoreRequest,
    ScoreResponse,
    Task,
)
from services.scoring import Scorer
from services.settings import Settings
from services.verifier import (
    RUBRIC_VERDICT_TEMPLATES,
    VERDICT_TEMPLATES,
    VerifierClient,
    VerifierConfig,
    parse_urls,
    resolve_template,
)

log = logging.getLogger(__name__)

try:
    VERSION = version("reward-verifier")
except PackageNotFoundError:  # running from a source tree that was not installed
    VERSION = "0.0.0"


class _Envelope(BaseModel):
    """The batch envelope, checked strictly; the items are validated one by one later."""

    model_config = ConfigDict(extra="forbid")
    items: list[Any]
    options: RewardOptions = Field(default_factory=RewardOptions)


# Errors every POST route can answer, so the spec documents them (schemathesis checks it).
_AUTH_AND_SIZE_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing or invalid API key"},
    413: {"model": ErrorResponse, "description": "Request body too large"},
}
# FastAPI answers 400 (not 422) to a body that is not UTF-8 text on the routes whose body
# it parses itself.
_PARSED_BODY_ERRORS: dict[int | str, dict[str, Any]] = {
    **_AUTH_AND_SIZE_ERRORS,
    400: {"model": ErrorResponse, "description": "Body is not UTF-8 text"},
}
# The batch routes parse their body themselves, so FastAPI does not add the 422 it
# documents for the routes whose body is a declared parameter.
_BATCH_ERRORS: dict[int | str, dict[str, Any]] = {
    **_AUTH_AND_SIZE_ERRORS,
    422: {"model": ErrorResponse, "description": "Malformed request: the field and the reason"},
}


class _JSONResponse(ORJSONResponse):
    """orjson, except for text orjson refuses to encode: a lone surrogate, which a client
    may send as a JSON escape (``"\\ud800"``) and get echoed back, is escaped the same way
    instead of failing the request with a 500."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except TypeError:
            return json.dumps(content, separators=(",", ":")).encode()


def _body_schema(model: type[BaseModel]) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}
            },
        }
    }


def _verifier_client(settings: Settings) -> VerifierClient | None:
    if not settings.llm_url:
        return None
    config = VerifierConfig(
        base_urls=parse_urls(settings.llm_url),
        model=settings.llm_model,
        api_key=settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
        mode=settings.llm_scoring,
        template=resolve_template(settings.llm_template, VERDICT_TEMPLATES),
        rubric_verdict_template=resolve_template(
            settings.llm_rubric_template, RUBRIC_VERDICT_TEMPLATES
        ),
        thinking=settings.llm_thinking,
        thinking_max_tokens=settings.llm_thinking_max_tokens,
        request_timeout_s=settings.llm_timeout_s,
        max_batch=settings.llm_max_batch,
    )
    return VerifierClient(config)


async def _verifier_status(client: VerifierClient | None) -> BackendStatus:
    if client is None:
        return BackendStatus(ok=False, detail=NOT_CONFIGURED)
    ok, detail = await client.health()
    return BackendStatus(ok=ok, detail=detail)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = SymbolicPool(settings.math_workers, settings.math_timeout_s, settings.math_memory_mb)
        await pool.warm()
        checker = MathChecker(
            pool, settings.cache_size, on_cache=metrics.cache_lookup, on_method=metrics.math_decided
        )
        sandbox = Sandbox(SandboxConfig.from_env())
        try:
            await sandbox.warmup()
        except SandboxUnavailable as exc:
            # Math keeps working; code items will say why they cannot run.
            log.warning("code sandbox unavailable: %s", exc)
        app.state.sandbox = sandbox
        client = _verifier_client(settings)
        app.state.verifier = client
        stage = LLMStage(client, settings.mode, metrics, settings.llm_verdict_source)
        app.state.scorer = Scorer(settings, checker, metrics, CodeScorer(sandbox), stage)
        try:
            yield
        finally:
            checker.close()
            await sandbox.aclose()
            if client is not None:
                await client.aclose()

    app = FastAPI(
        title="reward-verifier",
        version=VERSION,
        description="Batched reward verification for RL training: math answers, "
        "sandboxed code and an LLM verifier.",
        lifespan=lifespan,
        default_response_class=_JSONResponse,
    )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        # FastAPI's own handler, with an encoder that survives a lone surrogate in the
        # echoed input (FastAPI's raises on it: a 500 for a malformed body).
        return _JSONResponse({"detail": jsonable_encoder(exc.errors())}, status_code=422)

    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(MetricsMiddleware, metrics=metrics)

    bearer = HTTPBearer(auto_error=False)

    def require_key(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> None:
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

    def scorer(request: Request) -> Scorer:
        result: Scorer = request.app.state.scorer
        return result

    async def envelope(request: Request) -> _Envelope:
        try:
            data = orjson.loads(await request.body())
        except orjson.JSONDecodeError as exc:
            raise RequestValidationError(
                [{"loc": ("body",), "msg": f"body is not valid JSON: {exc}", "type": "json"}]
            ) from exc
        try:
            parsed = _Envelope.model_validate(data)
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

    Authorized = Depends(require_key)

    def add_score_route(path: str, only: Task | None, body: type[BaseModel], what: str) -> None:
        async def route(
            envelope_: Annotated[_Envelope, Depends(envelope)],
            scorer_: Annotated[Scorer, Depends(scorer)],
        ) -> ScoreResponse:
            return await scorer_.score_batch(envelope_.items, envelope_.options, only=only)

        app.post(
            path,
            response_model=ScoreResponse,
            dependencies=[Authorized],
            openapi_extra=_body_schema(body),
            responses=_BATCH_ERRORS,
            summary=f"Score a batch of {what}",
            name=f"score_{only.value}" if only else "score",
        )(route)

    add_score_route("/score", None, ScoreRequest, "math, code and rubric items")
    add_score_route("/score/math", Task.MATH, MathScoreRequest, "math items (task optional)")
    add_score_route("/score/code", Task.CODE, CodeScoreRequest, "code items (task optional)")
    add_score_route(
        "/score/rubric", Task.RUBRIC, RubricScoreRequest, "rubric items (task optional)"
    )

    @app.post(
        "/grade",
        response_model=GradeResponse,
        responses=_PARSED_BODY_ERRORS,
        dependencies=[Authorized],
        summary="Grade one answer against a reference",
    )
    async def grade(
        request: GradeRequest, scorer: Annotated[Scorer, Depends(scorer)]
    ) -> GradeResponse:
        return await compat.grade(scorer, request)

    @app.post(
        "/get_reward",
        response_model=RewardModelResponse,
        responses=_PARSED_BODY_ERRORS,
        dependencies=[Authorized],
        summary="OpenRLHF remote reward model: {query, prompts, labels} -> rewards",
    )
    async def get_reward(
        request: RewardModelRequest, scorer: Annotated[Scorer, Depends(scorer)]
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
        return await compat.reward_model(scorer, request)

    @app.get("/health", response_model=HealthResponse, summary="Liveness")
    async def health() -> HealthResponse:
        return HealthResponse(version=VERSION)

    @app.get(
        "/ready",
        response_model=ReadyResponse,
        summary="Which backends work",
        responses={
            503: {"model": ReadyResponse, "description": "A required backend does not work"}
        },
    )
    async def ready(request: Request) -> ORJSONResponse:
        sandbox: Sandbox = request.app.state.sandbox
        facts = await asyncio.to_thread(sandbox.status)
        isolation, q = facts.isolation, facts.q
        backends = {
            "math": BackendStatus(
                ok=hasattr(request.app.state, "scorer"),
                detail=f"{settings.math_workers} symbolic workers",
            ),
            "sandbox": BackendStatus(
                ok=isolation.ok, detail=f"isolation={isolation.level}: {isolation.reason}"
            ),
            "q": BackendStatus(
                ok=q.available, detail=f"q {q.version}" if q.available else str(q.reason)
            ),
            "llm_verifier": await _verifier_status(request.app.state.verifier),
        }
        required = settings.required()
        ready = all(backends[name].ok for name in required)
        body = ReadyResponse(ready=ready, required=list(required), backends=backends)
        return ORJSONResponse(body.model_dump(), status_code=200 if body.ready else 503)

    @app.get("/metrics", summary="Prometheus metrics", response_class=Response)
    async def prometheus() -> Response:
        return Response(metrics.render(), media_type="text/plain; version=0.0.4")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title, version=app.version, description=app.description, routes=app.routes
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in (ScoreRequest, MathScoreRequest, CodeScoreRequest, RubricScoreRequest):
                model_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(model_schema.pop("$defs", {}))
                components[model.__name__] = model_schema
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def create_app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory`` and multi-worker serving."""
    return create_app(Settings())
