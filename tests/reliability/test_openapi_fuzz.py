"""Schema-based fuzzing of every route in the OpenAPI spec, against the real service.

Schemathesis generates requests from the spec the running service publishes: valid ones
(positive) and ones that break the spec (negative). Every answer is checked: never a 5xx;
status code, content type, headers and body as the spec documents them; auth enforced.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import BaseSchema, GenerationMode
from schemathesis.core.parameters import ParameterLocation

from harness.service import running_service
from services.app import create_app
from services.settings import Settings

# Bounded so the whole fuzz run takes well under two minutes on two shared cores.
EXAMPLES_PER_OPERATION = 30
FUZZ_KEY = "fuzz-key-not-a-secret"
BATCH_ROUTES = {"/score", "/score/math", "/score/code", "/score/rubric"}

# The routes to fuzz, read from the app's own spec (building the app starts nothing).
OPERATIONS = sorted(
    (path, method.upper())
    for path, methods in create_app(Settings()).openapi()["paths"].items()
    for method in methods
)


def excluded_checks(path: str) -> list[Any]:
    """Checks whose premise the documented contract deliberately breaks on ``path``."""
    if path in BATCH_ROUTES:
        # One bad item never fails the batch: a schema-violating item gets 200 with
        # status 'error' for that item (asserted below), not a 4xx for the request.
        return [schemathesis.checks.negative_data_rejection]
    if path == "/get_reward":
        # query, prompts and labels must have equal lengths, a rule JSON Schema cannot
        # state: schema-valid bodies that break it rightly get 422.
        return [schemathesis.checks.positive_data_acceptance]
    return []


def excluded_for_case(case: schemathesis.Case[Any]) -> list[Any]:
    """Checks whose premise one generated case breaks.

    A query parameter is text on the wire, and any one text is a valid one-entry list: a
    "negative" value for a list parameter such as ``/get_reward``'s ``end_token`` (an
    object, a number) reaches the service as a valid value once serialised, so accepting
    it is right. Only a case whose query alone is negative is let off; a negative body is
    still held to rejection.
    """
    meta = case.meta
    if meta is None or not meta.is_negative_at(ParameterLocation.QUERY):
        return []
    if any(meta.is_negative_at(loc) for loc in ParameterLocation if loc != ParameterLocation.QUERY):
        return []
    return [schemathesis.checks.negative_data_rejection]


@pytest.fixture(scope="module")
def fuzz_service_url() -> Iterator[str]:
    # With a key set, the spec's bearer security is real, and schemathesis checks that
    # requests without it (or with a wrong one) are refused. One math worker and a short
    # deadline: generated answers may be pathological.
    env = {
        "VERIFIER_MATH_WORKERS": "1",
        "VERIFIER_MATH_TIMEOUT_S": "2",
        "VERIFIER_API_KEY": FUZZ_KEY,
    }
    with running_service(env) as url:
        yield url


@pytest.fixture(scope="module")
def api_schema(fuzz_service_url: str) -> BaseSchema:
    return schemathesis.openapi.from_url(f"{fuzz_service_url}/openapi.json")


def assert_batch_accounted_for(case: schemathesis.Case[Any], response: Any) -> None:
    """A 200 from a batch route has one result per item, in order, each with a reason."""
    if response.status_code != 200 or not isinstance(case.body, dict):
        return
    items = case.body.get("items")
    if not isinstance(items, list):
        return
    results = response.json()["results"]
    assert [r["index"] for r in results] == list(range(len(items)))
    for result in results:
        if result["status"] != "ok":
            assert result["detail"], result


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize(("path", "method"), OPERATIONS)
def test_every_route_conforms_and_never_fails(
    api_schema: BaseSchema, fuzz_service_url: str, path: str, method: str, mode: GenerationMode
) -> None:
    operation = api_schema[path][method]
    if mode is GenerationMode.NEGATIVE and not operation.body:
        pytest.skip("a GET route without parameters has nothing to break")
    skipped = excluded_checks(path)

    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def fuzz(case: schemathesis.Case[Any]) -> None:
        headers = {"Authorization": f"Bearer {FUZZ_KEY}"}
        response = case.call(base_url=fuzz_service_url, headers=headers, timeout=120)
        case.validate_response(
            response, headers=headers, excluded_checks=skipped + excluded_for_case(case)
        )
        if path in BATCH_ROUTES:
            assert_batch_accounted_for(case, response)

    fuzz()


def test_the_spec_documents_auth_and_error_answers(api_schema: BaseSchema) -> None:
    """The fuzzing above relies on these: every scoring route names its error answers."""
    raw = api_schema.raw_schema
    for path in (*BATCH_ROUTES, "/grade", "/get_reward"):
        responses = raw["paths"][path]["post"]["responses"]
        assert {"200", "401", "413", "422"} <= set(responses), (path, sorted(responses))
        assert raw["paths"][path]["post"]["security"], path
