"""The choice task end to end: one folder and one registry line, scored by the real service
on loopback through ``/score`` beside the built-in tasks, and trained on by the trainer's
reward function (its rows become choice items through the task's own row builder)."""

from __future__ import annotations

import asyncio

import httpx

from services.contract.protocol import RewardOptions, ScoreRequest
from services.tasks.choice.task import ENTRY
from services.tasks.choice.wire import ChoiceItem
from services.tasks.registry import entries
from trainer.config import RewardSection, ServiceSection
from trainer.remote_reward import RemoteReward, build_item
from trainer.service_client import AsyncServiceClient, ClientSettings


def test_the_registry_line_makes_it_a_task_of_the_service() -> None:
    assert entries()[-1] is ENTRY and ENTRY.name == "choice"
    # Its rewards lie between no_answer and correct, plus the format terms.
    interval = ENTRY.reward_interval(RewardOptions(format_weight=0.5, no_answer=-2).to_policy())
    assert interval is not None and (interval.low, interval.high) == (-2.0, 1.5)
    item = {"task": "choice", "completion": "B", "reference": "B"}
    (parsed,) = ScoreRequest.model_validate({"items": [item]}).items
    assert isinstance(parsed, ChoiceItem) and parsed.reference == "B"


def test_choice_items_are_scored_over_http_beside_the_built_in_tasks(service_url: str) -> None:
    items = [
        {"task": "choice", "id": "yes", "completion": "\\boxed{B}", "reference": "b"},
        {"task": "choice", "id": "no", "completion": "Answer: A", "reference": "B"},
        {"task": "choice", "id": "none", "completion": "no idea", "reference": "B"},
        {"task": "choice", "id": "bad", "completion": "B"},  # no reference
        {"task": "math", "id": "math", "completion": "\\boxed{4}", "reference": "4"},
    ]
    response = httpx.post(f"{service_url}/score", json={"items": items}, timeout=120)
    assert response.status_code == 200, response.text
    yes, no, none, bad, math = response.json()["results"]
    assert (yes["task"], yes["reward"], yes["status"], yes["judge"]) == (
        "choice",
        1.0,
        "ok",
        "rule",
    )
    assert yes["extracted"] == "B"
    assert yes["components"] == {
        "answer": 1.0,
        "correct": 1.0,
        "no_answer": 0.0,
        "format": 0.0,
        "thinking": -1.0,  # no thinking section: the short-thinking component, as math's
    }
    assert (no["reward"], no["detail"]) == (-1.0, "wrong: answered A, the right choice is B")
    assert (none["reward"], none["components"]["no_answer"]) == (-0.5, 1.0)
    # Its item model validates its items, as any task's does.
    assert bad["status"] == "error" and bad["reward"] is None
    assert "choice.reference: Field required" in bad["detail"]
    # The built-in tasks are scored beside it, as before.
    assert (math["task"], math["reward"]) == ("math", 1.0)
    # The request's reward values apply to it as to math.
    options = {"correct": 2.0, "wrong": 0.0, "format_weight": 1.0}
    response = httpx.post(
        f"{service_url}/score", json={"items": items[:2], "options": options}, timeout=120
    )
    assert [r["reward"] for r in response.json()["results"]] == [2.0, 0.0]


def test_the_trainer_trains_on_choice_rows(service_url: str) -> None:
    row = {"task": "choice", "reference": "C", "choices": ["1", "2", "3"]}
    reward = RewardSection()
    assert build_item(0, "Pick one.", "Answer: C", row, reward) == {
        "task": "choice",
        "id": 0,
        "prompt": "Pick one.",
        "completion": "Answer: C",
        "reference": "C",
        "choices": ["1", "2", "3"],
    }
    assert build_item(1, "Pick one.", "C", {"task": "choice"}, reward) is None  # no reference
    section = ServiceSection(url=[service_url])
    reward_fn = RemoteReward(AsyncServiceClient(ClientSettings.from_section(section)), reward)

    async def run() -> list[float | None]:
        try:
            return await reward_fn(
                prompts=["Pick one."] * 3,
                completions=["\\boxed{C}", "\\boxed{A}", "I cannot choose."],
                completion_ids=None,
                task=["choice"] * 3,
                reference=["C"] * 3,
            )
        finally:
            await reward_fn.client.aclose()

    assert asyncio.run(run()) == [1.0, -1.0, -0.5]
