"""What routes take from a request: the bearer key check and the batch envelope, in an app
of their own with real settings."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient

from services.api.dependencies import Authorized, envelope
from services.api.responses import JSONResponse, invalid_request
from services.contract.protocol import BatchEnvelope
from services.settings import Settings


def _app(settings: Settings) -> FastAPI:
    app = FastAPI(default_response_class=JSONResponse)
    app.state.settings = settings
    app.add_exception_handler(RequestValidationError, invalid_request)

    @app.post("/batch", dependencies=[Authorized])
    async def batch(body: Annotated[BatchEnvelope, Depends(envelope)]) -> dict[str, Any]:
        return {"items": len(body.items)}

    return app


def test_without_a_key_every_request_passes() -> None:
    with TestClient(_app(Settings(api_key=None))) as client:
        assert client.post("/batch", json={"items": [{}]}).json() == {"items": 1}


def test_with_a_key_only_its_bearer_passes() -> None:
    with TestClient(_app(Settings(api_key="k-1"))) as client:
        missing = client.post("/batch", json={"items": []})
        wrong = client.post("/batch", json={"items": []}, headers={"Authorization": "Bearer k-2"})
        right = client.post("/batch", json={"items": []}, headers={"Authorization": "Bearer k-1"})
    assert (missing.status_code, wrong.status_code, right.status_code) == (401, 401, 200)
    assert missing.headers["WWW-Authenticate"] == "Bearer"


def test_a_body_that_is_not_json_gets_422() -> None:
    with TestClient(_app(Settings())) as client:
        response = client.post(
            "/batch", content=b"{items", headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 422
    assert response.json()["detail"][0]["msg"].startswith("body is not valid JSON")


def test_envelope_errors_are_located_in_the_body() -> None:
    with TestClient(_app(Settings())) as client:
        response = client.post("/batch", json={"items": "not a list"})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][:2] == ["body", "items"]


def test_items_are_not_validated_here_so_one_bad_item_cannot_fail_the_batch() -> None:
    with TestClient(_app(Settings())) as client:
        response = client.post("/batch", json={"items": [{"task": "nonsense"}, 42]})
    assert response.json() == {"items": 2}


def test_a_batch_over_the_limit_gets_422_saying_the_limit() -> None:
    with TestClient(_app(Settings(max_batch_items=2))) as client:
        response = client.post("/batch", json={"items": [{}, {}, {}]})
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["type"] == "too_long" and "at most 2" in problem["msg"]
