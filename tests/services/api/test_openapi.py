"""The OpenAPI document: FastAPI's, plus the schemas of the batch bodies the batch routes
parse themselves."""

from __future__ import annotations

import json
from typing import Any

from services.api.score import BATCH_BODIES
from services.app import create_app
from services.settings import Settings


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(value) for value in node))
    return set()


def test_every_batch_body_is_a_component_and_every_reference_resolves() -> None:
    spec = create_app(Settings()).openapi()
    schemas = spec["components"]["schemas"]
    for model in BATCH_BODIES:
        assert model.__name__ in schemas, model.__name__
    assert "$defs" not in json.dumps(spec)
    for ref in _refs(spec):
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.rsplit("/", 1)[1] in schemas, ref


def test_the_document_is_built_once_and_is_the_same_for_every_app() -> None:
    app = create_app(Settings())
    first = app.openapi()
    assert app.openapi() is first
    assert json.dumps(create_app(Settings()).openapi()) == json.dumps(first)
