"""``/grade`` and OpenRLHF's ``/get_reward``, in-process with the app's real backends."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.services.api.conftest import API_KEY

BEARER = {"Authorization": f"Bearer {API_KEY}"}


def test_grade_needs_the_bearer_key(app_client: TestClient) -> None:
    body = {"question": "1+1?", "answer": "2", "reference": "2"}
    assert app_client.post("/grade", json=body).status_code == 401
    graded = app_client.post("/grade", json=body, headers=BEARER)
    assert graded.status_code == 200 and graded.json()["correct"] is True


def test_get_reward_takes_the_key_as_a_basic_password(app_client: TestClient) -> None:
    body = {"query": ["Q: 1+1? A: \\boxed{2}"], "prompts": ["Q: 1+1? A: "], "labels": ["2"]}
    assert app_client.post("/get_reward", json=body).status_code == 401
    refused = app_client.post("/get_reward", json=body, auth=("openrlhf", "wrong"))
    assert refused.status_code == 401
    scored = app_client.post("/get_reward", json=body, auth=("openrlhf", API_KEY))
    assert scored.status_code == 200 and scored.json()["rewards"] == [1.0]


def test_get_reward_lists_of_different_lengths_get_422_naming_them(
    app_client: TestClient,
) -> None:
    body = {"query": ["a", "b"], "prompts": ["a"], "labels": ["1", "2"]}
    response = app_client.post("/get_reward", json=body, headers=BEARER)
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "labels"] and "(2, 1, 2)" in problem["msg"]


def test_get_reward_over_the_batch_limit_gets_422(app_client: TestClient) -> None:
    body = {"query": ["a"] * 5, "prompts": ["a"] * 5, "labels": ["1"] * 5}
    response = app_client.post("/get_reward", json=body, headers=BEARER)
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "too_long"
