"""The JSON response class, the 422 handler and the error responses the spec documents."""

from __future__ import annotations

import json
from typing import Any

import orjson
from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse as StarletteJSONResponse
from fastapi.responses import Response

from services.admission import Saturated
from services.contract.protocol import ErrorResponse


class JSONResponse(StarletteJSONResponse):
    """Compact JSON written by orjson (FastAPI's ``ORJSONResponse`` is deprecated; these
    are the bytes it wrote), except for text orjson refuses to encode: a lone surrogate,
    which a client may send as a JSON escape (``"\\ud800"``) and get echoed back, is
    escaped the same way instead of failing the request with a 500. A JSON response
    class, so the spec documents each route's response model."""

    def render(self, content: Any) -> bytes:
        try:
            return orjson.dumps(
                content, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY
            )
        except TypeError:
            return json.dumps(content, separators=(",", ":")).encode()


async def invalid_request(request: Request, exc: Exception) -> Response:
    """FastAPI's own 422 handler, with an encoder that survives a lone surrogate in the
    echoed input (FastAPI's raises on it: a 500 for a malformed body)."""
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": jsonable_encoder(exc.errors())}, status_code=422)


async def saturated(request: Request, exc: Exception) -> Response:
    """429: a backend's queue is full; nothing of the request was scored."""
    assert isinstance(exc, Saturated)
    return JSONResponse(
        {"detail": str(exc)},
        status_code=429,
        headers={"Retry-After": str(exc.retry_after_s)},
    )


# Errors every POST route can answer, so the spec documents them (schemathesis checks it).
AUTH_AND_SIZE_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing or invalid API key"},
    413: {"model": ErrorResponse, "description": "Request body too large"},
    429: {
        "model": ErrorResponse,
        "description": "A backend's queue is full: retry after the Retry-After header's seconds",
    },
}
# FastAPI answers 400 (not 422) to a body that is not UTF-8 text on the routes whose body
# it parses itself.
PARSED_BODY_ERRORS: dict[int | str, dict[str, Any]] = {
    **AUTH_AND_SIZE_ERRORS,
    400: {"model": ErrorResponse, "description": "Body is not UTF-8 text"},
}
# The batch routes parse their body themselves, so FastAPI does not add the 422 it
# documents for the routes whose body is a declared parameter.
BATCH_ERRORS: dict[int | str, dict[str, Any]] = {
    **AUTH_AND_SIZE_ERRORS,
    422: {"model": ErrorResponse, "description": "Malformed request: the field and the reason"},
}
