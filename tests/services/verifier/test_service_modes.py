"""Every judge mode end to end: the real service calling a real vLLM verifier on CPU.

The service (``service_with_verifier``, conftest) is given the server twice, in the ``/v1``
form OpenAI clients use and in the root form, so every test here also goes through several
URLs of both forms.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import httpx
import pytest

from harness.vllm import VLLMServer
from trainer.adapters.verl import compute_score

RIGHT = {"task": "math", "prompt": "What is 2+2?", "completion": "\\boxed{4}", "reference": "4"}
WRONG = {"task": "math", "prompt": "What is 2+2?", "completion": "\\boxed{5}", "reference": "4"}
HALF = {
    "task": "math",
    "prompt": "Half of 1?",
    "completion": "\\boxed{one over two}",  # words the rule checker cannot read
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


def test_ready_reports_the_verifier(service_with_verifier: str, vllm_server: VLLMServer) -> None:
    ready = httpx.get(f"{service_with_verifier}/ready", timeout=60).json()
    assert ready["backends"]["llm_verifier"]["ok"] is True, ready
    detail = ready["backends"]["llm_verifier"]["detail"]
    assert detail.count(f"{vllm_server.url}: ok") == 2 and "/v1" not in detail


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


def test_addon_judges_a_bare_unmarked_correct_answer(service_with_verifier: str) -> None:
    # No box, no tag, no "answer is": the rule finds nothing (TinyV's "no answer" case).
    prose = "Two apples and two more apples make four apples in the basket."
    item = {"task": "math", "prompt": "What is 2+2?", "completion": prose, "reference": "4"}
    (result,) = _score(service_with_verifier, [item], mode="addon")
    assert result["status"] == "ok" and result["judge"] == "verifier", result
    assert result["components"]["no_answer"] == 1.0
    assert result["components"]["verifier_best_effort"] == 1.0
    assert result["extracted"] == "four"  # what the verifier saw: the answer, not the prose
    assert "best-effort answer" in result["detail"]
    p = _probability(result)
    # An answer the verifier judged runs from wrong to correct, marked or not: leaving it
    # unmarked gives no no-answer floor to stand on.
    assert result["reward"] == pytest.approx(-1.0 + 2.0 * p)


def test_rubric_source_drives_verifier_only(service_with_verifier: str) -> None:
    (result,) = _score(
        service_with_verifier,
        [RIGHT],
        mode="tinyv_only",  # TinyV's name for verifier_only
        verdict_source="rubric",
        correct=1.0,
        wrong=0.0,
    )
    assert result["status"] == "ok" and result["judge"] == "verifier", result
    score = result["components"]["verifier"]
    assert score * 10 == pytest.approx(round(score * 10, 1))  # an "X/10" grade
    assert result["components"]["score"] == pytest.approx(score)
    assert result["reward"] == pytest.approx(score)
    assert "rubric score" in result["detail"]


def _engine_requests(vllm: VLLMServer) -> float:
    text = httpx.get(f"{vllm.url}/metrics", timeout=30).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("vllm:request_success_total")
    )


def _settled_engine_requests(vllm: VLLMServer, before: float) -> float:
    """The counter once it stops moving (vLLM records a request's stats just after it ends)."""
    last = _engine_requests(vllm)
    for _ in range(20):
        time.sleep(0.25)
        now = _engine_requests(vllm)
        if now == last and now > before:
            break
        last = now
    return last - before


def test_repeated_answers_cost_the_engine_one_prompt(
    service_with_verifier: str, vllm_server: VLLMServer
) -> None:
    # A GRPO group: six completions, one wrong answer written the same way by all of them.
    question = f"What is 17 times 3? ({time.time_ns()})"  # never asked before in this session
    item = {"task": "math", "prompt": question, "completion": "\\boxed{41}", "reference": "51"}
    before = _engine_requests(vllm_server)
    first = _score(service_with_verifier, [item] * 6, mode="addon")
    assert _settled_engine_requests(vllm_server, before) == 1
    assert all(r["judge"] == "verifier" for r in first)
    assert len({r["components"]["verifier"] for r in first}) == 1
    # The next step sends the same answer again: the engine is not asked at all.
    before = _engine_requests(vllm_server)
    hits_before = _verdict_cache_hits(service_with_verifier)
    second = _score(service_with_verifier, [item] * 6, mode="addon")
    time.sleep(1.0)
    assert _engine_requests(vllm_server) == before
    assert [r["reward"] for r in second] == [r["reward"] for r in first]
    # /metrics shows where those verdicts came from.
    assert _verdict_cache_hits(service_with_verifier) == hits_before + 6


def _verdict_cache_hits(url: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=30).text
    line = 'verifier_llm_cache_total{kind="verdict",result="hit"} '
    values = [float(row[len(line) :]) for row in text.splitlines() if row.startswith(line)]
    return values[0] if values else 0.0


def test_verl_fork_positional_call_scores_with_the_verifier(service_with_verifier: str) -> None:
    """TinyV's verl fork, as its prime manager calls ``compute_score`` (six positionals), on
    rows the rule cannot read: ``*_tinyv`` rows get the verifier in the fork's setup."""
    prose = "Two apples and two more apples make four apples."
    info = {"question": "What is 2+2?"}
    tinyv = partial(compute_score, "bigmath_rl_tinyv", prose, "4", info, "addon", 0.5,
                    url=service_with_verifier)  # fmt: skip
    plain = partial(compute_score, "bigmath_rl_prime", prose, "4", info, "addon", 0.5,
                    url=service_with_verifier)  # fmt: skip
    item = {"task": "math", "prompt": info["question"], "completion": prose, "reference": "4"}
    # Under the fork the rewards are TinyV's 1/0/0.
    tinyv_scale = {"correct": 1.0, "wrong": 0.0, "no_answer": 0.0}
    (direct,) = _score(
        service_with_verifier, [item], mode="addon", verifier_weight=0.5, **tinyv_scale
    )
    assert direct["judge"] == "verifier"
    # The fork reads the score as float(result[0]) (its gather wraps it once more).
    assert float(tinyv()[0]) == pytest.approx(direct["reward"])
    assert float(plain()[0]) == 0.0  # other sources: the rule alone (no answer), as in the fork
