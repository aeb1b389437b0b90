"""Committing never costs: the incentive table of docs/integrity.md, row by row, through the
real service and a real vLLM verifier on CPU.

For one question, the same answer is written marked, unmarked, hidden in the reasoning
block, hedged, or not at all, and scored in every mode on the default scale and on TinyV's
1/0/0. In no mode is a completion better off for leaving its answer unmarked, hiding it or
hedging it than for marking it; a completion with no answer is never shown to the judge.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

QUESTION = "A box holds 6 rows of 7 apples. How many apples are in the box?"
ROWS = {
    "marked_right": "6 rows of 7 apples. \\boxed{42}",
    "marked_wrong": "6 rows of 7 apples. \\boxed{41}",
    "unmarked_right": "Six rows of seven apples each, so the total is 42 apples",
    "unmarked_wrong": "Six rows of seven apples each, so the total is 41 apples",
    "hidden_right": "<think>6 rows of 7 apples, so \\boxed{42}</think>",
    "hidden_wrong": "<think>6 rows of 7 apples, so \\boxed{41}</think>",
    "hedged": "It is \\boxed{41} or \\boxed{42}.",
    "hedged_unmarked": "It is either 41 or 42 apples",
    "no_answer": "Let me think about this problem carefully.",
}
SCALES = {
    "default": {"correct": 1.0, "wrong": -1.0, "no_answer": -0.5},
    "tinyv": {"correct": 1.0, "wrong": 0.0, "no_answer": 0.0},
}
MODES = ["rule", "addon", "mixed", "verifier_only"]


def _score(url: str, mode: str, scale: dict[str, float], weight: float) -> dict[str, Any]:
    items = [
        {"task": "math", "id": name, "prompt": QUESTION, "completion": text, "reference": "42"}
        for name, text in ROWS.items()
    ]
    options = {"mode": mode, "verifier_weight": weight, **scale}
    response = httpx.post(f"{url}/score", json={"items": items, "options": options}, timeout=900)
    assert response.status_code == 200, response.text
    return {result["id"]: result for result in response.json()["results"]}


@pytest.mark.parametrize("weight", [1.0, 0.5])
@pytest.mark.parametrize("scale", SCALES, ids=list(SCALES))
@pytest.mark.parametrize("mode", MODES)
def test_committing_never_costs(
    service_with_verifier: str, mode: str, scale: str, weight: float
) -> None:
    values = SCALES[scale]
    c, w, n = values["correct"], values["wrong"], values["no_answer"]
    r = _score(service_with_verifier, mode, values, weight)
    reward = {name: result["reward"] for name, result in r.items()}
    assert all(value is not None for value in reward.values()), r

    # Leaving an answer unmarked, or hiding it, never pays more than marking it.
    for answer in ("right", "wrong"):
        assert reward[f"unmarked_{answer}"] <= reward[f"marked_{answer}"] + 1e-9, r
        assert reward[f"hidden_{answer}"] <= reward[f"marked_{answer}"] + 1e-9, r
    # A hedge is a wrong answer: never shown to the judge, in any mode.
    assert reward["hedged"] == w and r["hedged"]["judge"] == "rule", r["hedged"]
    # An answer only inside the reasoning block is judged by the rule, never credited; the
    # verifier's verdict on its value may only lower it, to what it earns marked.
    unmarked_right = max(w, min(n, c))
    assert reward["hidden_wrong"] == w
    assert reward["hidden_right"] == pytest.approx(min(unmarked_right, reward["marked_right"]))
    for name in ("hidden_right", "hidden_wrong"):
        assert r[name]["judge"] == "rule" and r[name]["components"]["answer_hidden"] == 1.0
    for name in ("hedged", "no_answer"):
        assert "verifier" not in r[name]["components"], r[name]
    # No answer: the no-answer reward, never sent to the judge.
    assert reward["no_answer"] == n and r["no_answer"]["judge"] == "rule"

    if mode == "rule":
        assert (reward["marked_right"], reward["marked_wrong"]) == (c, w)
        # Unmarked: a wrong answer is wrong; a right one is not credited (the no-answer
        # reward): marking pays, not marking never does.
        assert reward["unmarked_wrong"] == w
        assert reward["unmarked_right"] == unmarked_right
        return
    # The verifier was shown the value, marked or not, and its score maps onto [wrong,
    # correct]: the same value gets the same verdict, so an unmarked wrong answer earns
    # exactly what the marked one does, never the no-answer floor.
    for name in ("unmarked_right", "unmarked_wrong", "hedged_unmarked"):
        assert r[name]["judge"] == "verifier", r[name]
        assert w <= reward[name] <= c
    assert r["unmarked_wrong"]["extracted"] == "41" and r["unmarked_right"]["extracted"] == "42"
    assert reward["unmarked_wrong"] == pytest.approx(reward["marked_wrong"])
    if mode == "verifier_only":
        assert reward["unmarked_right"] == pytest.approx(reward["marked_right"])
    if mode == "addon":
        assert reward["marked_right"] == c  # the rule accepts it: the verifier is not asked
    # "Either 41 or 42" shows the judge one value, the last: hedging in prose is committing
    # to the last candidate, never both.
    assert r["hedged_unmarked"]["extracted"] == "42"
    assert reward["hedged_unmarked"] == pytest.approx(reward["unmarked_right"])
