"""The OpenAPI spec: FastAPI's, plus the request bodies of the batch routes, which parse
their body themselves (so that one bad item cannot fail the batch) and so declare none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from services.api.score import BATCH_BODIES


def batch_openapi(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi``: the spec, built once, with every batch body's schema."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title, version=app.version, description=app.description, routes=app.routes
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in BATCH_BODIES:
                model_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(model_schema.pop("$defs", {}))
                components[model.__name__] = model_schema
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi
