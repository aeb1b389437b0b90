"""Every reward lies in its policy's interval in every mode, with a real vLLM verifier on CPU:
random and hostile completions for math, critique, rubric and code items together (the
rubric's grade comes from the model; the completion is the response it grades), random
reward options and verifier weights, both verdict sources."""

from __future__ import annotations

from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.services.rewards.hostile import check_bounded, completions, reward_options

MODES = ["rule", "addon", "mixed", "verifier_only"]


def _items(texts: list[str], target: float) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for i, text in enumerate(texts):
        items.append(
            {"task": "math", "prompt": "6 times 7?", "completion": text, "reference": "42"}
        )
        items.append({"task": "critique", "completion": text, "reference": target})
        if i == 0:  # one rubric grading and one program per batch: the slow parts
            # (the response cut short: a CPU model writes its critique slowly)
            response = text[:400]
            items.append(
                {
                    "task": "rubric",
                    "prompt": "6 times 7?",
                    "completion": response,
                    "reference": target,
                }
            )
            tests = [{"code": "assert add(1, 2) == 3"}]
            items.append({"task": "code", "language": "python", "completion": text, "tests": tests})
    return items


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.lists(completions(), min_size=1, max_size=3),
    st.floats(min_value=0.0, max_value=1.0),
    reward_options(MODES),
    st.sampled_from(["tinyv", "rubric"]),
)
def test_every_reward_lies_in_its_interval_in_every_mode(
    service_with_verifier: str,
    texts: list[str],
    target: float,
    options: dict[str, Any],
    source: str,
) -> None:
    items = _items(texts, target)
    body = {"items": items, "options": {**options, "verdict_source": source}}
    response = httpx.post(f"{service_with_verifier}/score", json=body, timeout=900)
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert len(results) == len(items)
    for item, result in zip(items, results, strict=True):
        check_bounded(item, options, result)
        if item["task"] in ("math", "rubric"):
            # The verifier was there: nothing fell back or went unjudged.
            assert result["status"] in ("ok", "error", "timeout"), result
