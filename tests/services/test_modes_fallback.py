"""Modes when the LLM verifier cannot be reached: visible fallbacks, never silent rewards.

The verifier URL points at a loopback port nobody listens on, so every call really fails
with a refused connection.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from harness.service import free_port, running_service

DEAD = f"http://127.0.0.1:{free_port()}"


@pytest.fixture(scope="module")
def unreachable_verifier_url() -> Iterator[str]:
    # Given in the /v1 form OpenAI clients use; the service talks to the server root.
    env = {
        "VERIFIER_LLM_URL": f"{DEAD}/v1",
        "VERIFIER_LLM_TIMEOUT_S": "2",
        "VERIFIER_MATH_WORKERS": "1",
    }
    with running_service(env) as url:
        yield url


def _score(url: str, items: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    response = httpx.post(f"{url}/score", json={"items": items, "options": options}, timeout=120)
    assert response.status_code == 200
    results: list[dict[str, Any]] = response.json()["results"]
    return results


RIGHT = {"task": "math", "completion": "\\boxed{4}", "reference": "4", "prompt": "2+2?"}
WRONG = {"task": "math", "completion": "\\boxed{5}", "reference": "4", "prompt": "2+2?"}


def test_addon_keeps_accepted_answers_and_labels_fallbacks(unreachable_verifier_url: str) -> None:
    right, wrong = _score(unreachable_verifier_url, [RIGHT, WRONG], mode="addon")
    # The rule accepted the first answer: the verifier is not asked, nothing degrades.
    assert (right["status"], right["reward"], right["judge"]) == ("ok", 1.0, "rule")
    # The rule rejected the second: the verifier was needed and failed, so the rule verdict
    # stands and the status says so.
    assert (wrong["status"], wrong["reward"], wrong["judge"]) == ("unavailable", -1.0, "rule")
    assert "LLM verifier unavailable" in wrong["detail"] and "rule verdict used" in wrong["detail"]


def test_mixed_falls_back_for_every_answer(unreachable_verifier_url: str) -> None:
    results = _score(unreachable_verifier_url, [RIGHT, WRONG], mode="mixed", verifier_weight=0.5)
    assert [r["status"] for r in results] == ["unavailable", "unavailable"]
    assert [r["reward"] for r in results] == [1.0, -1.0]


def test_verifier_only_gives_no_reward(unreachable_verifier_url: str) -> None:
    results = _score(unreachable_verifier_url, [RIGHT, WRONG], mode="verifier_only")
    assert [(r["status"], r["reward"]) for r in results] == [("unavailable", None)] * 2
    assert all("no fallback" in r["detail"] for r in results)


def test_rubric_items_are_unavailable(unreachable_verifier_url: str) -> None:
    item = {
        "task": "rubric",
        "prompt": "Explain gravity.",
        "completion": "Mass attracts.",
        "reference": 0.8,
    }
    (result,) = _score(unreachable_verifier_url, [item])
    assert (result["status"], result["reward"]) == ("unavailable", None)
    assert "rubric grading unavailable" in result["detail"]


def test_grade_reports_the_fallback(unreachable_verifier_url: str) -> None:
    body = {"answer": "5", "reference": "4", "mode": "addon"}
    verdict = httpx.post(f"{unreachable_verifier_url}/grade", json=body, timeout=60).json()
    assert verdict["correct"] is False and verdict["status"] == "unavailable"
    assert verdict["method"] == "rule" and verdict["probability"] is None


def test_ready_and_metrics_show_the_verifier_state(unreachable_verifier_url: str) -> None:
    ready = httpx.get(f"{unreachable_verifier_url}/ready", timeout=30).json()
    assert ready["ready"] is True  # math still works
    assert ready["backends"]["llm_verifier"]["ok"] is False
    # The wrong URL is named, in the root form the client calls.
    assert f"{DEAD}: unreachable" in ready["backends"]["llm_verifier"]["detail"]
    metrics = httpx.get(f"{unreachable_verifier_url}/metrics", timeout=30).text
    assert 'verifier_llm_items_total{mode="addon",outcome="skipped"}' in metrics
    assert 'verifier_llm_items_total{mode="addon",outcome="fallback"}' in metrics


def test_no_answer_keeps_its_reward_when_the_verifier_is_down(
    unreachable_verifier_url: str,
) -> None:
    unmarked = {
        "task": "math",
        "prompt": "2+2?",
        "completion": "Two and two make four, as everyone knows by now.",
        "reference": "4",
    }
    (result,) = _score(unreachable_verifier_url, [unmarked], mode="addon")
    # The verifier was asked about the unmarked answer (every rejected answer is) but could
    # not answer: the rule's verdict stands (a right answer given without a marker: the
    # no-answer reward), labelled, and the detail names what was sent and where.
    assert (result["status"], result["reward"], result["judge"]) == ("unavailable", -0.5, "rule")
    assert "no final answer found" in result["detail"]
    assert "best-effort answer 'four' (unmarked)" in result["detail"]
    assert DEAD in result["detail"] and "/v1/v1" not in result["detail"]
