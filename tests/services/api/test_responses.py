"""The service's JSON response class and its 422 and 429 handlers, in an app of their own."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient
from pydantic import BaseModel

from services.admission import Backend, Saturated
from services.api.responses import JSONResponse, invalid_request, saturated


class _Body(BaseModel):
    count: int


def _app() -> FastAPI:
    app = FastAPI(default_response_class=JSONResponse)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(Saturated, saturated)

    @app.post("/echo")
    async def echo(body: _Body) -> dict[str, int]:
        return {"count": body.count}

    @app.post("/full")
    async def full() -> None:
        raise Saturated(Backend.SANDBOX, "256 tests queued", retry_after_s=7)

    return app


def test_bytes_are_compact_utf8_json() -> None:
    body = JSONResponse({"a": 1.5, "b": [1, None], "c": "é\u2028", 3: True}).body
    assert body == b'{"a":1.5,"b":[1,null],"c":"\xc3\xa9\xe2\x80\xa8","3":true}'


def test_a_lone_surrogate_is_escaped_instead_of_failing() -> None:
    response = JSONResponse({"echo": "\ud800"})
    assert response.body == b'{"echo":"\\ud800"}'
    assert response.headers["content-type"] == "application/json"


def test_routes_answer_with_it() -> None:
    with TestClient(_app()) as client:
        response = client.post("/echo", json={"count": 2})
    assert response.status_code == 200 and response.content == b'{"count":2}'


def test_a_malformed_body_gets_422_naming_the_field_even_with_a_surrogate() -> None:
    with TestClient(_app()) as client:
        response = client.post(
            "/echo", content=b'{"count": "\\ud800"}', headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "count"]
    assert problem["input"] == "\ud800"


def test_a_full_queue_gets_429_with_retry_after() -> None:
    with TestClient(_app()) as client:
        response = client.post("/full")
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "7"
    assert "sandbox queue full" in response.json()["detail"]
