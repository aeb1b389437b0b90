"""RemoteReward against the real service: the rewards are the service's, item by item."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.contract.http_policy import HttpPolicy
from trainer.config import RewardSection, ServiceSection
from trainer.remote_reward import RemoteReward
from trainer.service_client import AsyncServiceClient, ClientSettings, RewardServiceError

QUESTION = [{"role": "user", "content": "What is 6 * 7?"}]
ADD_TESTS = [
    {"code": "assert add(1, 2) == 3", "stdin": None, "expected": None},
    {"code": "print(add(2, 2))", "stdin": None, "expected": "4"},
]


def reward_fn(
    urls: list[str], reward: RewardSection, debug: Path | None = None, max_batch: int = 512
) -> RemoteReward:
    section = ServiceSection(url=urls, max_batch=max_batch, http=HttpPolicy(retries=0))
    return RemoteReward(AsyncServiceClient(ClientSettings.from_section(section)), reward, debug)


def call(
    reward: RemoteReward, prompts: list[Any], completions: list[Any], **columns: Any
) -> tuple[list[float | None], dict[str, list[float]], dict[str, list[Any]]]:
    metrics: dict[str, list[float]] = {}
    extras: dict[str, list[Any]] = {}

    async def run() -> list[float | None]:
        try:
            return await reward(
                prompts=prompts,
                completions=completions,
                completion_ids=None,
                log_metric=lambda name, value: metrics.setdefault(name, []).append(value),
                log_extra=lambda name, values: extras.setdefault(name, []).extend(values),
                **columns,
            )
        finally:
            await reward.client.aclose()

    return asyncio.run(run()), metrics, extras


def assistant(text: str) -> list[dict[str, str]]:
    return [{"role": "assistant", "content": text}]


def test_math_conversational(service_url: str, tmp_path: Path) -> None:
    completions = [
        assistant("<think>6 times 7</think><answer>42</answer>"),
        assistant("The answer is 41."),
        assistant("I am not sure."),
        assistant("<think>six sevens</think><answer>\\boxed{42}</answer>"),
    ]
    reward = reward_fn(
        [service_url],
        RewardSection(format_weight=0.5, debug_log_every=1, debug_samples=None),
        tmp_path / "d.jsonl",
    )
    rewards, metrics, extras = call(
        reward,
        [QUESTION] * 4,
        completions,
        task=["math"] * 4,
        reference=["42"] * 4,
        trainer_state=None,
    )
    # Correct with full format: 1 + 0.5 * 1; wrong: -1; no answer: -0.5.
    assert rewards == [1.5, -1.0, -0.5, 1.5]
    assert metrics["verifier/accuracy"] == [0.5]
    assert metrics["verifier/correct"] == [0.5]
    assert metrics["verifier/no_answer"] == [0.25]
    assert metrics["verifier/status_ok"] == [1.0]
    assert metrics["verifier/seconds"][0] > 0
    assert extras["verifier_status"] == ["ok"] * 4
    records = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    assert [r["reward"] for r in records] == rewards
    assert records[0]["completion"] == "<think>6 times 7</think><answer>42</answer>"
    assert records[0]["prompt"] == "What is 6 * 7?"
    assert records[1]["components"]["correct"] == 0.0


def test_python_code(service_url: str) -> None:
    completions = [
        "```python\ndef add(a, b):\n    return a + b\n```",
        "```python\ndef add(a, b):\n    return a - b\n```",
        "no code here",
    ]
    reward = reward_fn([service_url], RewardSection(task="code", language="python"))
    rewards, metrics, _ = call(
        reward,
        ["Define add."] * 3,
        completions,
        task=["code"] * 3,
        language=["python"] * 3,
        tests=[ADD_TESTS] * 3,
    )
    # All pass: 1 * 1 + bonus 1; none pass: 0; no code: empty_code_reward.
    assert rewards == [2.0, 0.0, -0.5]
    assert metrics["verifier/accuracy"] == [pytest.approx(1 / 3)]
    assert metrics["verifier/tests_total"] == [2.0]


def test_every_test_of_a_row_runs_unless_the_config_names_a_number(service_url: str) -> None:
    # Seven tests the program passes and an eighth it fails: the trainer's default sends no
    # max_tests, so the eighth runs; q-code's max_tests_per_problem (3) runs the first 3.
    tests = [ADD_TESTS[0]] * 7 + [{"code": "assert add(5, 5) == 11"}]
    program = "```python\ndef add(a, b):\n    return a + b\n```"
    rewards = {}
    for max_tests in (None, 3):
        reward = reward_fn([service_url], RewardSection(task="code", max_tests=max_tests))
        rewards[max_tests], metrics, _ = call(
            reward, ["Define add."], [program], task=["code"], language=["python"], tests=[tests]
        )
        assert metrics["verifier/accuracy"] == [1.0 if max_tests else 0.0]
    assert rewards == {None: [pytest.approx(7 / 8)], 3: [2.0]}


def test_rows_without_a_reference_get_none(service_url: str) -> None:
    reward = reward_fn([service_url], RewardSection())
    rewards, _, _ = call(
        reward,
        ["q", "q"],
        ["\\boxed{1}", "\\boxed{1}"],
        task=["math", "math"],
        reference=["1", None],
    )
    assert rewards == [1.0, None]


def test_batches_split_and_spread_over_urls(service_url: str) -> None:
    # The same replica named twice stands in for two; 7 items in chunks of 2 -> 4 requests.
    reward = reward_fn([service_url, service_url + "/"], RewardSection(), max_batch=2)
    answers = [str(n) for n in range(7)]
    rewards, _, _ = call(
        reward,
        ["q"] * 7,
        [f"\\boxed{{{a}}}" for a in answers],
        task=["math"] * 7,
        reference=["3"] * 7,
    )
    assert rewards == [-1.0, -1.0, -1.0, 1.0, -1.0, -1.0, -1.0]


def test_rewards_equal_a_direct_score_request(service_url: str) -> None:
    completions = ["\\boxed{\\frac{1}{2}}", "0.5", "#### 1/3", "<answer>50%</answer>"]
    reward = reward_fn([service_url], RewardSection(wrong=-2.0, no_answer=-0.25))
    rewards, _, _ = call(
        reward, ["half?"] * 4, completions, task=["math"] * 4, reference=["1/2"] * 4
    )
    direct = httpx.post(
        f"{service_url}/score",
        timeout=60,
        json={
            "items": [{"task": "math", "completion": c, "reference": "1/2"} for c in completions],
            "options": {"wrong": -2.0, "no_answer": -0.25},
        },
    ).json()["results"]
    assert rewards == [r["reward"] for r in direct]


def test_refused_batch_fails_clearly(strict_service_url: str) -> None:
    # No API key: 401 is not retried and names the cause.
    reward = reward_fn([strict_service_url], RewardSection())
    with pytest.raises(RewardServiceError, match="HTTP 401"):
        call(reward, ["q"], ["\\boxed{1}"], task=["math"], reference=["1"])


@pytest.mark.parametrize("task", ["critique", "grade"])  # 'grade': the task's former name
def test_critique_rows_train_a_rubric_model(service_url: str, task: str) -> None:
    # The policy is the rubric model: its critique's grade is scored against the target.
    reward = reward_fn([service_url], RewardSection(task=task))
    completions = [assistant("Sound.\nTotal Score: 8/10"), assistant("Looks fine to me.")]
    rewards, _, _ = call(
        reward, ["Grade it."] * 2, completions, task=[task] * 2, reference=[0.6, 0.6]
    )
    assert rewards == [pytest.approx((1 - abs(0.8 - 0.6)) ** 2), 0.0]


@pytest.mark.parametrize(
    "tests",
    [
        {"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]},
        json.dumps({"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]}),
    ],
    ids=["dict", "json-string"],
)
def test_verl_stdio_ground_truth_as_the_tests_column(service_url: str, tests: Any) -> None:
    # A dataset built by hand from verl's rows: the tests column holds its ground_truth.
    completions = [
        "```python\na, b = map(int, input().split())\nprint(a + b)\n```",
        "```python\na, b = map(int, input().split())\nprint(a * b)\n```",
    ]
    reward = reward_fn([service_url], RewardSection(task="code"))
    rewards, metrics, _ = call(
        reward, ["Sum."] * 2, completions, task=["code"] * 2, tests=[tests] * 2
    )
    assert rewards == [2.0, 0.0]  # 1.0 pass fraction + 1.0 bonus; 3 != 2, 35 != 12
    assert metrics["verifier/tests_total"] == [2.0]


def test_verl_call_based_ground_truth(service_url: str) -> None:
    tests = json.dumps({"fn_name": "add", "inputs": [[1, 2], [2, 2]], "outputs": [[3], [4]]})
    completions = [
        "```python\ndef add(a, b):\n    return a + b\n```",
        "```python\ndef add(a, b):\n    return a * b\n```",
    ]
    reward = reward_fn([service_url], RewardSection(task="code"))
    rewards, _, _ = call(
        reward, ["Define add."] * 2, completions, task=["code"] * 2, tests=[tests] * 2
    )
    assert rewards == [2.0, pytest.approx(0.5)]  # 2*2 == 2+2: one of two passes
