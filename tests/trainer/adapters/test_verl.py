"""The verl adapter against the real service."""

from __future__ import annotations

import os

import pytest

from trainer.adapters.verl import compute_score, compute_score_batch
from trainer.service_client import RewardServiceError


def test_compute_score_math(service_url: str) -> None:
    right = compute_score("gsm8k", "... so the answer is 18. #### 18", "18", url=service_url)
    wrong = compute_score("gsm8k", "#### 17", "18", url=service_url)
    assert right["score"] == 1.0 and right["acc"] == 1.0
    assert wrong["score"] == -1.0 and wrong["acc"] == 0.0


def test_url_from_the_environment(service_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_URL", service_url)
    assert compute_score("math", "\\boxed{\\frac{1}{2}}", "0.5")["score"] == 1.0


def test_batch_form_mixes_math_and_code(service_url: str) -> None:
    tests = [{"code": "assert add(1, 2) == 3"}]
    scores = compute_score_batch(
        data_sources=["math", "code"],
        solution_strs=["\\boxed{4}", "```python\ndef add(a, b):\n    return a + b\n```"],
        ground_truths=["4", None],
        extra_infos=[None, {"tests": tests, "language": "python"}],
        url=service_url,
        options={"correct": 2.0},
    )
    assert scores[0]["score"] == 2.0
    # Code: 1 test of 1 passed (1.0) plus the perfect bonus (1.0); components ride along.
    assert scores[1]["score"] == 2.0 and scores[1]["acc"] == 1.0
    assert (scores[1]["tests_passed"], scores[1]["tests_total"]) == (1.0, 1.0)
    assert all(isinstance(value, float) for value in scores[1].values())


@pytest.mark.skipif(bool(os.environ.get("Q_BIN")), reason="needs a service without q")
def test_unjudged_item_raises_instead_of_inventing_a_score(service_url: str) -> None:
    # Without a q binary the service cannot judge q code: reward null, status unavailable.
    with pytest.raises(RewardServiceError, match="unavailable"):
        compute_score("q", "```q\nsolve:{x*2}\n```", None,
                      {"tests": [{"code": "show solve[2];", "expected": "4"}], "language": "q"},
                      url=service_url)
