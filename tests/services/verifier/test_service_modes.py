"""Every judge mode end to end: the real service calling a real vLLM verifier on CPU."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.service_process import running_service
from tests.vllm_process import VLLMServer


@pytest.fixture(scope="module")
def service_with_verifier(vllm_server: VLLMServer) -> Iterator[str]:
    env = {
        "VERIFIER_LLM_URL": vllm_server.url,
        "VERIFIER_LLM_MODEL": vllm_server.model,
        "VERIFIER_LLM_TIMEOUT_S": "600",  # a CPU server is slow; nothing here tests timeouts
        "VERIFIER_MATH_WORKERS": "1",
    }
    with running_service(env) as url:
        yield url


RIGHT = {"task": "math", "prompt": "What is 2+2?", "completion": "\\boxed{4}", "reference": "4"}
WRONG = {"task": "math", "prompt": "What is 2+2?", "completion": "\\boxed{5}", "reference": "4"}
HALF = {
    "task": "math",
    "prompt": "Half of 1?",
    "completion": "\\boxed{one half}",
    "reference": "\\frac{1}{2}",
}


def _score(url: str, items: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    response = httpx.post(f"{url}/score", json={"items": items, "options": options}, timeout=900)
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def _probability(result: dict[str, Any]) -> float:
    p = result["components"]["verifier"]
    assert 0.0 <= p <= 1.0
    assert 0.0 < result["components"]["verifier_label_mass"] <= 1.0 + 1e-6
    return float(p)


def test_ready_reports_the_verifier(service_with_verifier: str) -> None:
    ready = httpx.get(f"{service_with_verifier}/ready", timeout=60).json()
    assert ready["backends"]["llm_verifier"]["ok"] is True, ready


def test_addon_asks_only_about_rejected_answers(service_with_verifier: str) -> None:
    right, wrong, half = _score(
        service_with_verifier, [RIGHT, WRONG, HALF], mode="addon", verifier_weight=0.5
    )
    assert (right["judge"], right["reward"], right["status"]) == ("rule", 1.0, "ok")
    assert "verifier" not in right["components"]
    for result in (wrong, half):
        assert result["status"] == "ok" and result["judge"] == "verifier"
        p = _probability(result)
        assert result["reward"] == pytest.approx(-1.0 + 2.0 * p * 0.5)
        assert result["components"]["rule_correct"] == 0.0
    metrics = httpx.get(f"{service_with_verifier}/metrics", timeout=30).text
    assert 'verifier_llm_items_total{mode="addon",outcome="skipped"}' in metrics
    assert 'verifier_llm_items_total{mode="addon",outcome="judged"}' in metrics


def test_mixed_blends_rule_and_verifier(service_with_verifier: str) -> None:
    w = 0.25
    right, wrong = _score(service_with_verifier, [RIGHT, WRONG], mode="mixed", verifier_weight=w)
    for result, rule in ((right, 1.0), (wrong, 0.0)):
        assert result["judge"] == "verifier"
        p = _probability(result)
        assert result["components"]["score"] == pytest.approx(p * w + rule * (1 - w))
        assert result["reward"] == pytest.approx(-1.0 + 2.0 * (p * w + rule * (1 - w)))


def test_verifier_only_uses_the_probability(service_with_verifier: str) -> None:
    (right,) = _score(service_with_verifier, [RIGHT], mode="verifier_only", correct=2.0, wrong=0.0)
    p = _probability(right)
    assert right["reward"] == pytest.approx(2.0 * p)


def test_grade_with_a_mode_reports_the_probability(service_with_verifier: str) -> None:
    body = {"question": "What is 2+2?", "answer": "5", "reference": "4", "mode": "addon"}
    verdict = httpx.post(f"{service_with_verifier}/grade", json=body, timeout=600).json()
    assert verdict["status"] == "ok" and verdict["method"] == "verifier"
    assert 0.0 <= verdict["probability"] <= 1.0
    assert verdict["correct"] is (verdict["probability"] >= 0.5)


def test_rubric_items_are_graded(service_with_verifier: str) -> None:
    item = {
        "task": "rubric",
        "prompt": "Why is the sky blue?",
        "completion": "Rayleigh scattering: shorter wavelengths scatter more.",
        "reference": 0.9,
    }
    response = httpx.post(
        f"{service_with_verifier}/score/rubric",
        json={"items": [{k: v for k, v in item.items() if k != "task"}]},
        timeout=900,
    )
    (result,) = response.json()["results"]
    assert result["status"] == "ok" and result["judge"] == "verifier", result
    score = result["components"]["score"]
    assert 0.0 <= score <= 1.0
    assert result["reward"] == pytest.approx((1 - abs(score - 0.9)) ** 2)
