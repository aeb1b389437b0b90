"""Every reward lies in its policy's interval, whatever the completion: random and hostile
completions (negative, huge, NaN, infinite and thousand-digit numbers in every field a
completion controls, text addressed to a judge, chat-template tokens) and random reward
options, sent to the real service on loopback, math, critique and code items together.

This runs without an LLM verifier (the modes then fall back to the rule verdict, labelled);
tests/services/verifier/test_reward_interval.py runs the same property with a real vLLM
verifier, rubric items included.
"""

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
        if i == 0:  # one program per batch: the sandbox is the slow part
            tests = [
                {"code": "assert add(1, 2) == 3"},
                {"code": "print(add(2, 2))", "expected": "4"},
            ]
            items.append({"task": "code", "language": "python", "completion": text, "tests": tests})
    return items


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.lists(completions(), min_size=1, max_size=6),
    st.floats(min_value=0.0, max_value=1.0),
    reward_options(MODES),
)
def test_every_reward_lies_in_its_interval(
    service_url: str, texts: list[str], target: float, options: dict[str, Any]
) -> None:
    items = _items(texts, target)
    response = httpx.post(
        f"{service_url}/score", json={"items": items, "options": options}, timeout=300
    )
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert len(results) == len(items)
    for item, result in zip(items, results, strict=True):
        check_bounded(item, options, result)
        if item["task"] == "critique":
            # A critique's grade is read and clamped whatever it says: never an error.
            assert result["status"] == "ok", result
