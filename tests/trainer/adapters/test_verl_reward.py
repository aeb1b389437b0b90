"""The verl reward function (trainer/adapters/verl_reward.py) against the real service."""

from __future__ import annotations

import json
import logging
import math
import os
from typing import Any

import httpx
import pytest

from trainer.adapters import verl
from trainer.adapters.verl_reward import (
    RESULT_KEYS,
    RewardServiceError,
    UnjudgedItemError,
    _accuracy,
    compute_score,
    compute_score_batch,
)

ADD = "```python\ndef add(a, b):\n    return a + b\n```"
DOUBLE = "```python\nprint(int(input()) * 2)\n```"
# verl's own code-data format: ground_truth is JSON stdin/stdout pairs.
VERL_CODE_TRUTH = json.dumps({"inputs": ["2\n", "3\n"], "outputs": ["4\n", "7\n"]})

# (data_source, solution, ground_truth, extra_info) and the /score item it stands for.
ROWS: list[tuple[tuple[str, str, Any, dict[str, Any] | None], dict[str, Any]]] = [
    (
        ("gsm8k", "so #### 18", "18", {"question": "9 + 9?"}),
        {"task": "math", "completion": "so #### 18", "reference": "18", "prompt": "9 + 9?"},
    ),
    (
        ("math", "\\boxed{5}", "4", None),
        {"task": "math", "completion": "\\boxed{5}", "reference": "4"},
    ),
    (
        ("apps", ADD, None, {"tests": [{"code": "assert add(1, 2) == 3"}]}),
        {"task": "code", "language": "python", "completion": ADD,
         "tests": [{"code": "assert add(1, 2) == 3"}]},
    ),
    (
        ("codecontests", DOUBLE, VERL_CODE_TRUTH, {"index": 3}),
        {"task": "code", "language": "python", "completion": DOUBLE, "tests": VERL_CODE_TRUTH},
    ),
    (
        ("grade", "Fine work.\nTotal Score: 8/10", 0.6, None),
        {"task": "critique", "completion": "Fine work.\nTotal Score: 8/10", "reference": 0.6},
    ),
    (
        ("critique", "Fine work.\nTotal Score: 6/10", 0.6, None),
        {"task": "critique", "completion": "Fine work.\nTotal Score: 6/10", "reference": 0.6},
    ),
]  # fmt: skip


def _served(client: httpx.Client, items: list[dict[str, Any]], **options: Any) -> list[Any]:
    response = client.post("/score", json={"items": items, "options": options})
    response.raise_for_status()
    return [result["reward"] for result in response.json()["results"]]


def test_every_task_gives_the_same_keys_and_the_services_reward(
    service_url: str, client: httpx.Client
) -> None:
    # verl's reward loop takes the first sample's keys for the whole batch: a math, code and
    # critique mix must give one key set, every value a number.
    scores = [compute_score(*row, url=service_url) for row, _ in ROWS]
    for score in scores:
        assert tuple(score) == RESULT_KEYS
        assert all(type(value) is float and math.isfinite(value) for value in score.values())
    assert [s["score"] for s in scores] == _served(client, [item for _, item in ROWS])
    # Right answer, wrong answer, all tests passed, 1 of 2 passed, grade 0.8 for 0.6 (seed
    # 004's data source 'grade'), grade 0.6 for 0.6 (data source 'critique').
    assert [s["acc"] for s in scores] == [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    assert (scores[3]["tests_passed"], scores[3]["tests_total"]) == (1.0, 2.0)
    assert scores[0]["tests_total"] == 0.0 and scores[4]["degraded"] == 0.0


def test_reward_model_keywords_are_accepted_and_ignored(service_url: str) -> None:
    # verl passes these when reward.reward_model.enable=True.
    score = compute_score(data_source="gsm8k", solution_str="#### 4", ground_truth="4",
                          extra_info={}, reward_router_address="127.0.0.1:9",
                          reward_model_tokenizer=object(), url=service_url)  # fmt: skip
    assert score["score"] == 1.0


def test_an_unknown_keyword_is_an_error(service_url: str) -> None:
    # A misspelt reward_kwargs entry must not pass silently.
    with pytest.raises(TypeError, match="tinyv_mode"):
        compute_score("math", "\\boxed{4}", "4", url=service_url,
                      tinyv_mode="addon")  # type: ignore[call-arg]  # fmt: skip


@pytest.mark.skipif(bool(os.environ.get("Q_BIN")), reason="needs a service without q")
def test_an_unjudged_item_raises_and_is_logged(
    service_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Without a q binary the service cannot judge q code: reward null, status unavailable.
    q_row = {"tests": [{"code": "show solve[2];", "expected": "4"}], "language": "q"}
    with caplog.at_level(logging.ERROR), pytest.raises(UnjudgedItemError, match="unavailable"):
        compute_score("q", "```q\nsolve:{x*2}\n```", None, q_row, url=service_url)
    assert "could not judge a 'q' item (unavailable)" in caplog.text


def test_options_from_the_environment_and_the_keyword(
    service_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIER_URL", service_url)
    monkeypatch.setenv("VERIFIER_REWARD_OPTIONS", json.dumps({"correct": 3.0, "wrong": -2.0}))
    assert compute_score("math", "\\boxed{4}", "4")["score"] == 3.0
    # The keyword overrides the environment key by key.
    assert compute_score("math", "\\boxed{5}", "4", options={"correct": 5.0})["score"] == -2.0
    assert compute_score("math", "\\boxed{4}", "4", options={"correct": 5.0})["score"] == 5.0


def test_a_service_that_refuses_the_request_is_an_error(service_url: str) -> None:
    with pytest.raises(RewardServiceError, match="422"):
        compute_score("math", "\\boxed{4}", "4", url=service_url, options={"correct": "many"})


def test_the_fork_scale_and_routing(
    service_url: str, caplog: pytest.LogCaptureFixture, client: httpx.Client
) -> None:
    # Under the fork (tinyv_setup given) rewards are TinyV's 1/0/0. Sources with '_tinyv' or
    # 'HardVerify-Math' go to the verifier in the fork's mode; this service has none, so the
    # addon rows come back degraded to the rule (and logged), which shows the mode they had.
    rows = [("bigmath_rl_tinyv", "\\boxed{5}"), ("HardVerify-Math", "\\boxed{5}"),
            ("gsm8k", "\\boxed{5}"), ("gsm8k", "\\boxed{4}")]  # fmt: skip
    with caplog.at_level(logging.WARNING):
        scores = [compute_score(s, c, "4", None, "addon", 1.0, url=service_url) for s, c in rows]
    assert [s["score"] for s in scores] == [0.0, 0.0, 0.0, 1.0]
    assert [s["degraded"] for s in scores] == [1.0, 1.0, 0.0, 0.0]
    assert caplog.text.count("judged unavailable") == 2
    items = [{"task": "math", "completion": c, "reference": "4"} for _, c in rows]
    assert [s["score"] for s in scores] == _served(
        client, items, mode="rule", correct=1, wrong=0, no_answer=0
    )
    # tinyv_only (verifier alone) cannot judge without a verifier, and says so.
    with pytest.raises(UnjudgedItemError, match="verifier_only"):
        compute_score("math_tinyv", "\\boxed{4}", "4", None, "tinyv_only", 1.0, url=service_url)


def test_the_fork_scale_gives_way_to_the_environment(
    service_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIER_REWARD_OPTIONS", json.dumps({"wrong": -1.0}))
    score = compute_score("gsm8k", "\\boxed{5}", "4", None, "addon", 1.0, url=service_url)
    assert score["score"] == -1.0


def test_prime_managers_read_the_score_at_index_zero(service_url: str) -> None:
    score = compute_score("math", "\\boxed{4}", "4", url=service_url)
    assert score[0] == float(score) == score["score"] == 1.0


def test_batch_form(service_url: str, client: httpx.Client) -> None:
    rows = [row for row, _ in ROWS]
    scores = compute_score_batch(
        [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows],
        url=service_url, options={"format_weight": 0.0},
    )  # fmt: skip
    assert [s["score"] for s in scores] == _served(client, [item for _, item in ROWS])


def test_the_first_name_still_works() -> None:
    # pkg://trainer.adapters.verl, as the docs gave it before the self-contained file.
    assert verl.compute_score is compute_score


@pytest.mark.parametrize("task", ["critique", "grade"])  # 'grade': a service before the rename
def test_a_critique_on_target_is_accurate_whatever_the_service_names_the_task(task: str) -> None:
    assert _accuracy(task, {"score": 0.6, "reference": 0.6}) == 1.0
    assert _accuracy(task, {"score": 0.8, "reference": 0.6}) == 0.0


def test_code_is_accurate_only_when_no_test_was_left_out_by_the_services_limit() -> None:
    assert _accuracy("code", {"tests_passed": 3.0, "tests_total": 3.0}) == 1.0
    chosen = {"tests_passed": 3.0, "tests_total": 3.0, "tests_not_run": 5.0, "tests_capped": 0.0}
    assert _accuracy("code", chosen) == 1.0  # the row's own max_tests
    assert _accuracy("code", {**chosen, "tests_capped": 1.0}) == 0.0
    assert _accuracy("code", {"tests_passed": 2.0, "tests_total": 3.0}) == 0.0


def test_a_numeric_ground_truth_is_a_reference_converted_exactly(service_url: str) -> None:
    # GSM8K-style loaders keep numeric answers as numbers.
    assert compute_score("gsm8k", "#### 4", 4, url=service_url)["score"] == 1.0
    assert compute_score("gsm8k", "#### 5", 4, url=service_url)["score"] == -1.0
    assert compute_score("math", "\\boxed{\\frac{1}{10}}", 0.1, url=service_url)["acc"] == 1.0


@pytest.mark.parametrize(
    ("truth", "reason"),
    [
        ("", "the reference is empty"),
        ("  ", "the reference is only whitespace"),
        (None, "the reference is missing"),
        (True, "the reference is a boolean"),
        ("4\x00", "control character"),
        ("$$", "holds no answer"),
        (float("nan"), "ground truth nan is not an answer"),
    ],
)
def test_a_ground_truth_that_cannot_judge_raises_never_a_silent_score(
    service_url: str, caplog: pytest.LogCaptureFixture, truth: Any, reason: str
) -> None:
    with caplog.at_level(logging.ERROR), pytest.raises(UnjudgedItemError, match=reason):
        compute_score("gsm8k", "#### 4", truth, url=service_url)
    assert reason in caplog.text
