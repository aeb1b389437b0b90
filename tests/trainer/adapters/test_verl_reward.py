"""The verl reward function (trainer/adapters/verl_reward.py) against the real service."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.scripted_server import serving
from trainer.adapters import verl
from trainer.adapters.verl_reward import (
    RESULT_KEYS,
    RewardError,
    RewardInputError,
    RewardServiceError,
    UnjudgedItemError,
    _accuracy,
    close_clients,
    compute_score,
    compute_score_async,
    compute_score_batch,
)

ADAPTER = Path(verl.__file__).with_name("verl_reward.py")
PYENV = Path(os.environ.get("PYENV_ROOT", "/root/.pyenv")) / "versions"

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


def test_an_unknown_keyword_is_an_error_no_exception_handler_takes(service_url: str) -> None:
    # A misspelt reward_kwargs entry must not pass silently, nor as an Exception that verl's
    # rate_limited manager would turn into a reward of 0.0.
    with pytest.raises(RewardInputError, match="tinyv_mode"):
        compute_score("math", "\\boxed{4}", "4", url=service_url, tinyv_mode="addon")
    with pytest.raises(RewardInputError, match="lingr_s"):
        asyncio.run(compute_score_async("math", "\\boxed{4}", "4", url=service_url, lingr_s=1))
    assert not issubclass(RewardError, Exception)


def test_an_input_the_adapter_cannot_send_is_an_error_no_exception_handler_takes(
    service_url: str,
) -> None:
    # A critique row whose target is not a number: float() fails inside the adapter.
    with pytest.raises(RewardInputError, match="ValueError"):
        compute_score("critique", "Total Score: 8/10", "high", url=service_url)
    with pytest.raises(RewardInputError, match="BATCH_SIZE"):
        asyncio.run(compute_score_async("math", "#### 4", "4", url=service_url, batch_size=0))


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
        [r[0] for r in rows],
        [r[1] for r in rows],
        [r[2] for r in rows],
        [r[3] for r in rows],
        url=service_url,
        options={"format_weight": 0.0},
    )
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


# compute_score_async: the calls of a step, coalesced.


def _score_requests(service_url: str) -> float:
    """``POST /score`` requests the service has answered so far, from its own /metrics."""
    text = httpx.get(f"{service_url}/metrics").text
    pattern = r"^verifier_requests_total\{[^}]*route=\"/score\"[^}]*\} (\S+)$"
    return sum(float(value) for value in re.findall(pattern, text, flags=re.MULTILINE))


def _gather(*calls: Any) -> list[Any]:
    """The calls awaited together, as verl's reward loop awaits a step's samples."""

    async def every() -> list[Any]:
        try:
            return list(await asyncio.gather(*calls, return_exceptions=True))
        finally:
            await close_clients()

    return asyncio.run(every())


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers: a service that hangs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield int(listener.getsockname()[1])


def test_the_async_function_gives_the_sync_functions_results(service_url: str) -> None:
    scores = _gather(*(compute_score_async(*row, url=service_url) for row, _ in ROWS))
    assert [dict(score) for score in scores] == [
        dict(compute_score(*row, url=service_url)) for row, _ in ROWS
    ]
    assert scores[0][0] == float(scores[0]) == 1.0


def test_a_steps_calls_go_in_few_requests_one_per_option_set_and_batch(
    service_url: str,
) -> None:
    # 600 samples (75 prompts x 8 answers, most of them repeated within their group), half
    # of them with options of their own: 300 per option set, at most 256 per request.
    rows = [(f"#### {i % 3}", str(i // 8 % 3), {"correct": 2.0} if i % 2 else None)
            for i in range(600)]  # fmt: skip
    before = _score_requests(service_url)
    scores = _gather(
        *(
            compute_score_async("gsm8k", completion, truth, url=service_url, options=options)
            for completion, truth, options in rows
        )
    )
    assert _score_requests(service_url) - before == 4  # 256 + 44, twice
    expected = [(2.0 if options else 1.0) if completion == f"#### {truth}" else -1.0
                for completion, truth, options in rows]  # fmt: skip
    assert [score["score"] for score in scores] == expected


def test_an_unjudged_item_fails_its_own_call_only(
    service_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    before = _score_requests(service_url)
    with caplog.at_level(logging.ERROR):
        outcomes = _gather(
            compute_score_async("gsm8k", "#### 4", "4", url=service_url),
            compute_score_async("gsm8k", "#### 4", None, url=service_url),
            compute_score_async("gsm8k", "#### 5", "4", url=service_url),
        )
    assert _score_requests(service_url) - before == 1
    assert isinstance(outcomes[1], UnjudgedItemError)
    assert "the reference is missing" in str(outcomes[1])
    assert [outcomes[0]["score"], outcomes[2]["score"]] == [1.0, -1.0]
    assert "could not judge a 'gsm8k' item" in caplog.text


def test_a_failing_service_is_asked_once_per_batch_and_every_call_fails_with_the_reason() -> None:
    # A real server on loopback that answers 503 (a fault the service itself gives only
    # when it is not ready): 20 calls, one request, retried 4 times.
    with serving([(503, {"detail": "not ready"})]) as server:
        outcomes = _gather(
            *(compute_score_async("gsm8k", "#### 4", "4", url=server.url) for _ in range(20))
        )
        assert server.requests == 5
    assert all(isinstance(outcome, RewardServiceError) for outcome in outcomes)
    assert all("no answer after 5 attempts" in str(outcome) for outcome in outcomes)
    assert "answered 503" in str(outcomes[0])


def test_requests_in_flight_are_capped() -> None:
    # 20 calls in batches of 5 to a server that takes 0.5 s a request, one request at a time.
    result = {"reward": 1.0, "status": "ok", "task": "math", "components": {"correct": 1.0}}
    with serving([(200, {"results": [result] * 5})], delay_s=0.5) as server:
        started = time.monotonic()
        scores = _gather(
            *(
                compute_score_async(
                    "gsm8k", "#### 4", "4", url=server.url, batch_size=5, max_in_flight=1
                )
                for _ in range(20)
            )
        )
        elapsed = time.monotonic() - started
        assert server.requests == 4
    assert [score["acc"] for score in scores] == [1.0] * 20
    assert elapsed >= 4 * 0.5


def test_a_cancelled_call_is_an_error_not_a_timeout(silent_port: int) -> None:
    # verl's rate_limited manager wraps each call in asyncio.wait_for(..., reward.timeout) and
    # scores a TimeoutError 0.0; the call raises its own error instead.
    url = f"http://127.0.0.1:{silent_port}"
    call = compute_score_async("gsm8k", "#### 4", "4", url=url, timeout_s=30)
    (outcome,) = _gather(asyncio.wait_for(call, timeout=0.5))
    assert isinstance(outcome, RewardServiceError)
    assert "cancelled before the service answered" in str(outcome)


def test_without_aiohttp_the_standard_library_sends_the_batches(service_url: str) -> None:
    # Python 3.10 from pyenv has no aiohttp: the file, loaded by path as verl loads it,
    # sends its batches with urllib in threads.
    found = sorted(PYENV.glob("3.10.*/bin/python3.10"))
    if not found:
        pytest.skip(f"no Python 3.10 under {PYENV} (pyenv)")
    code = (
        "import asyncio, importlib.util, json\n"
        f"spec = importlib.util.spec_from_file_location('custom_module_1', {str(ADAPTER)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "async def step():\n"
        "    return await asyncio.gather(*(module.compute_score_async(data_source='gsm8k',\n"
        "        solution_str=f'#### {i % 2}', ground_truth='0', extra_info={},\n"
        f"        url={service_url!r}) for i in range(300)))\n"
        "print(json.dumps([score['score'] for score in asyncio.run(step())]))\n"
    )
    no_aiohttp = subprocess.run([str(found[-1]), "-I", "-c", "import aiohttp"], check=False,
                                capture_output=True)  # fmt: skip
    assert no_aiohttp.returncode != 0
    before = _score_requests(service_url)
    done = subprocess.run([str(found[-1]), "-I", "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    assert json.loads(done.stdout) == [1.0, -1.0] * 150
    assert _score_requests(service_url) - before == 2
