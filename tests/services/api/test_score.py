"""``/score`` and the typed batch routes, in-process with the app's real backends."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.services.api.conftest import API_KEY

BEARER = {"Authorization": f"Bearer {API_KEY}"}
ADD = "Here it is.\n```python\ndef add(a, b):\n    return a + b\n```"
ADD_TESTS = [{"code": "assert add(1, 2) == 3"}, {"code": "assert add(2, 2) == 4"}]


def _math(completion: str, reference: str, **extra: Any) -> dict[str, Any]:
    return {"task": "math", "completion": completion, "reference": reference, **extra}


def _code(completion: str, **extra: Any) -> dict[str, Any]:
    return {"language": "python", "completion": completion, "tests": ADD_TESTS, **extra}


def _score(client: TestClient, path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.post(path, json=body, headers=BEARER)
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def test_score_needs_the_bearer_key(app_client: TestClient) -> None:
    body = {"items": [_math("\\boxed{2}", "2")]}
    assert app_client.post("/score", json=body).status_code == 401
    wrong = {"Authorization": "Bearer not-the-key"}
    assert app_client.post("/score", json=body, headers=wrong).status_code == 401
    assert app_client.post("/score", json=body, headers=BEARER).status_code == 200


def test_score_judges_a_mixed_batch_in_order(app_client: TestClient) -> None:
    items = [
        _math("\\boxed{2}", "2", id="right"),
        _code(ADD, task="code", id="program"),
        _math("\\boxed{3}", "2", id="wrong"),
    ]
    response = app_client.post("/score", json={"items": items}, headers=BEARER)
    assert response.status_code == 200
    body = response.json()
    got = [(r["index"], r["id"], r["task"], r["status"]) for r in body["results"]]
    assert got == [
        (0, "right", "math", "ok"),
        (1, "program", "code", "ok"),
        (2, "wrong", "math", "ok"),
    ]
    right, program, wrong = body["results"]
    assert (right["reward"], wrong["reward"]) == (1.0, -1.0)
    assert program["reward"] == 2.0 and program["components"]["tests_passed"] == 2.0
    assert body["summary"]["items"] == 3 and body["summary"]["by_status"] == {"ok": 3}


def test_one_bad_item_is_an_error_result_not_a_failed_batch(app_client: TestClient) -> None:
    items = [{"task": "math", "completion": "\\boxed{2}"}, _math("\\boxed{2}", "2")]
    missing, scored = _score(app_client, "/score", {"items": items})
    assert (missing["status"], missing["reward"]) == ("error", None)
    assert "reference" in missing["detail"]
    assert (scored["status"], scored["reward"]) == ("ok", 1.0)


def test_the_typed_routes_take_items_without_a_task(app_client: TestClient) -> None:
    (math,) = _score(
        app_client, "/score/math", {"items": [{"completion": "\\boxed{4}", "reference": "4"}]}
    )
    assert (math["task"], math["reward"]) == ("math", 1.0)
    (code,) = _score(app_client, "/score/code", {"items": [_code(ADD)]})
    assert (code["task"], code["reward"], code["detail"]) == ("code", 2.0, "2/2 tests passed")


def test_a_typed_route_refuses_another_tasks_item(app_client: TestClient) -> None:
    (refused,) = _score(app_client, "/score/math", {"items": [_code(ADD, task="code")]})
    assert (refused["status"], refused["reward"]) == ("error", None)
    assert "this endpoint scores only 'math' items" in refused["detail"]


def test_request_options_apply_to_the_batch(app_client: TestClient) -> None:
    body = {"items": [_code("no code here")], "options": {"empty_code_reward": -2.0}}
    (empty,) = _score(app_client, "/score/code", body)
    assert (empty["status"], empty["reward"]) == ("ok", -2.0)


def test_a_batch_over_the_item_limit_gets_422(app_client: TestClient) -> None:
    items = [_math("\\boxed{2}", "2")] * 5
    response = app_client.post("/score", json={"items": items}, headers=BEARER)
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "too_long"
