"""The reward preflight and the stop after steps whose rewards were unavailable, against
the real service (which has no q and no LLM verifier on this machine)."""

from __future__ import annotations

import asyncio

import pytest
from transformers import TrainerControl, TrainerState, TrainingArguments

from services.contract.http_policy import HttpPolicy
from trainer.config import RewardSection, ServiceSection
from trainer.preflight import RewardsUnavailable, UnavailableGuard, preflight, probe_items
from trainer.remote_reward import RemoteReward
from trainer.service_client import AsyncServiceClient, ClientSettings

MATH_ROW = {"task": "math", "reference": "4"}
Q_ROW = {
    "task": "code",
    "language": "q",
    "tests": [{"code": "show solve 1;", "stdin": None, "expected": "2"}],
}
PYTHON_ROW = {
    "task": "code",
    "language": "python",
    "tests": [{"code": None, "stdin": "1", "expected": "2"}],
}


def settings(url: str) -> ClientSettings:
    return ClientSettings.from_section(ServiceSection(url=[url], http=HttpPolicy(retries=0)))


def test_one_probe_per_kind_of_row() -> None:
    items = probe_items([MATH_ROW, MATH_ROW, Q_ROW, PYTHON_ROW, Q_ROW], RewardSection())
    assert [(i["task"], i.get("language")) for i in items] == [
        ("math", None),
        ("code", "q"),
        ("code", "python"),
    ]


def test_rule_math_and_python_pass(service_url: str) -> None:
    preflight(settings(service_url), [MATH_ROW, PYTHON_ROW], RewardSection())


def test_q_without_q_stops_with_the_reason(service_url: str) -> None:
    with pytest.raises(RewardsUnavailable, match=r"code \(q\) rewards are unavailable.*Q_BIN"):
        preflight(settings(service_url), [MATH_ROW, Q_ROW], RewardSection())
    # Allowed: a warning, no stop.
    preflight(settings(service_url), [Q_ROW], RewardSection(allow_unavailable=True))


@pytest.mark.parametrize("mode", ["addon", "verifier_only"])
def test_a_verifier_mode_without_a_verifier_stops(service_url: str, mode: str) -> None:
    with pytest.raises(RewardsUnavailable, match="LLM verifier"):
        preflight(settings(service_url), [MATH_ROW], RewardSection(mode=mode))


def test_an_unreachable_service_stops() -> None:
    with pytest.raises(RewardsUnavailable, match="did not answer"):
        preflight(settings("http://127.0.0.1:9"), [MATH_ROW], RewardSection())


def test_steps_with_mostly_unavailable_rewards_stop_the_run(service_url: str) -> None:
    section = RewardSection(task="code", language="q", max_unavailable_steps=2)
    reward = RemoteReward(AsyncServiceClient(settings(service_url)), section)
    guard = UnavailableGuard(reward, section.max_unavailable_steps)
    control = TrainerControl()
    columns = {key: [value] * 2 for key, value in Q_ROW.items()}

    async def step() -> None:
        await reward(prompts=["q"] * 2, completions=["```q\nshow 2\n```"] * 2, **columns)

    async def run(steps: int) -> None:
        try:
            for number in range(1, steps + 1):
                await step()
                guard.on_step_end(
                    TrainingArguments(output_dir="/tmp/unused", use_cpu=True),
                    TrainerState(global_step=number),
                    control,
                )
                if number == 1:
                    assert not control.should_training_stop  # one step is not a streak
        finally:
            await reward.client.aclose()

    asyncio.run(run(2))
    assert control.should_training_stop
    assert guard.reason is not None and "2 steps in a row" in guard.reason
    assert "Q_BIN" in guard.reason
