"""``/grade`` and OpenRLHF's ``/get_reward``, in-process with the app's real backends."""

from __future__ import annotations

import pytest
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


# A label as datasets hold it, the answer the completion boxes, and what /score says of it.
LABEL_CASES: list[tuple[object, str, str, str]] = [
    ("", "4", "error", "the reference is empty"),
    (" \t\n", "4", "error", "the reference is only whitespace"),
    ("4\x00", "4", "error", "the reference holds a control character (U+0000)"),
    (4, "4", "ok", "correct"),
    (0.1, "0.1", "ok", "correct"),
    # 0.1 is the decimal 0.1, not the binary double's 0.1000000000000000055511151231257827.
    (0.1, "0.1000000000000000055511151231257827", "ok", "wrong"),
    (10**30, "1" + "0" * 30, "ok", "correct"),
    (1e-05, "0.00001", "ok", "correct"),
]


@pytest.mark.parametrize(
    ("label", "answer", "status", "reason"),
    LABEL_CASES,
    ids=[
        "empty",
        "whitespace",
        "nul",
        "int",
        "float",
        "float-not-its-double",
        "big-int",
        "exponent",
    ],
)
def test_get_reward_reads_a_label_as_score_reads_the_reference(
    app_client: TestClient, label: object, answer: str, status: str, reason: str
) -> None:
    """Empty, whitespace and NUL-bearing labels cannot judge: /score says why, and
    /get_reward (which can only carry numbers) gives the no-answer reward and error 1,
    never the wrong answer's -1. Numbers are read exactly, the same on both routes."""
    completion = f"\\boxed{{{answer}}}"
    item = {"task": "math", "completion": completion, "reference": label}
    scored = app_client.post("/score", json={"items": [item]}, headers=BEARER)
    assert scored.status_code == 200, scored.text
    (result,) = scored.json()["results"]
    assert result["status"] == status and result["detail"].startswith(reason), result

    body = {"query": [f"Q: {completion}"], "prompts": ["Q: "], "labels": [label]}
    rewarded = app_client.post("/get_reward", json=body, headers=BEARER)
    assert rewarded.status_code == 200, rewarded.text
    data = rewarded.json()
    if status == "error":
        assert result["reward"] is None
        assert data["rewards"] == [-0.5] and data["extra_logs"]["error"] == [1.0], data
    else:
        assert data["rewards"] == [result["reward"]], (data, result)
        assert data["extra_logs"]["error"] == [0.0]
        assert data["extra_logs"]["correct"] == [result["components"]["correct"]]
