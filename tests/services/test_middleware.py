"""The ASGI middleware on a small app of its own: body limit (413) and request metrics."""

from __future__ import annotations

from collections.abc import Iterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from services.metrics import Metrics
from services.middleware import BodyLimitMiddleware, MetricsMiddleware

LIMIT = 100


async def echo_size(request: Request) -> JSONResponse:
    return JSONResponse({"size": len(await request.body())})


def client(metrics: Metrics) -> TestClient:
    app = Starlette(routes=[Route("/items/{name}", echo_size, methods=["GET", "POST"])])
    app.add_middleware(BodyLimitMiddleware, max_bytes=LIMIT)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    return TestClient(app)


def test_a_body_within_the_limit_reaches_the_app_whole() -> None:
    response = client(Metrics()).post("/items/a", content=b"x" * LIMIT)
    assert (response.status_code, response.json()) == (200, {"size": LIMIT})


def test_a_declared_or_streamed_body_over_the_limit_is_refused() -> None:
    http = client(Metrics())
    declared = http.post("/items/a", content=b"x" * (LIMIT + 1))
    assert declared.status_code == 413 and str(LIMIT) in declared.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: cut off while reading
        yield b"x" * 60
        yield b"x" * 60

    assert http.post("/items/a", content=chunks()).status_code == 413
    assert http.get("/items/a").status_code == 200


def test_requests_are_counted_by_route_template_and_code() -> None:
    metrics = Metrics()
    http = client(metrics)
    http.get("/items/a")
    http.get("/items/b")
    http.post("/items/c", content=b"x" * (LIMIT + 1))
    http.get("/nowhere")
    # Refused before routing, or matching no route: the route is "unmatched".
    assert {
        'verifier_requests_total{code="200",route="/items/{name}"} 2.0',
        'verifier_requests_total{code="413",route="unmatched"} 1.0',
        'verifier_requests_total{code="404",route="unmatched"} 1.0',
        'verifier_request_seconds_count{route="/items/{name}"} 2.0',
    } <= set(metrics.render().decode().splitlines())
