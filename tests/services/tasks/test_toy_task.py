"""Adding a task is one folder and one registry line: a toy task, written here as the
folder's modules would be, registered at runtime and scored over HTTP by the real app.

The toy task ("echo") asks a completion to end with a given word. Nothing outside this
module changes: the scorer validates its items with its item model, builds its judge, asks
its reward rule and presents its result only through the registry.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import httpx
import pytest
import uvicorn
from pydantic import BaseModel, ConfigDict

from services.app import create_app
from services.echo import preview
from services.judgement import Judgement
from services.launcher import free_port
from services.protocol import Judge, Status, Task
from services.rewards.policy import NO_REWARD, Reward, RewardPolicy
from services.settings import Settings
from services.tasks.entry import JudgeParts, Presented, TaskEntry
from services.tasks.judging import BatchContext, Entry, TaskJudge, judge_each
from services.tasks.registry import entries, registered

# -- the folder: services/tasks/echo/{item,evidence,judge,reward,result,task}.py -----------


class EchoItem(BaseModel):
    model_config = ConfigDict(extra="forbid")
    task: Literal["echo"]
    id: str | int | None = None
    prompt: str = ""
    completion: str
    word: str


@dataclass(frozen=True, slots=True)
class EchoEvidence:
    last_word: str | None


class EchoJudge:
    async def judge(self, entries: Sequence[Entry], context: BatchContext) -> list[Judgement[Any]]:
        async def one(index: int, item: EchoItem) -> Judgement[EchoEvidence]:
            words = item.completion.split()
            last = words[-1] if words else None
            return Judgement(
                index=index,
                id=item.id,
                task=Task(item.task),
                status=Status.OK,
                judge=Judge.RULE,
                detail=f"ends with {last!r}",
                evidence=EchoEvidence(last),
                correct=last == item.word,
            )

        return await judge_each(entries, context, EchoItem, one)


def echo_judge(parts: JudgeParts) -> TaskJudge:
    return EchoJudge()


def echo_reward(judgement: Judgement[EchoEvidence], policy: RewardPolicy) -> Reward:
    if not judgement.judged or judgement.evidence is None:
        return NO_REWARD
    scale = policy.scale
    return Reward(scale.correct if judgement.correct else scale.wrong)


def present_echo(judgement: Judgement[EchoEvidence], reward: Reward) -> Presented:
    if judgement.evidence is None:
        return Presented({}, None)
    return Presented(
        {"correct": 1.0 if judgement.correct else 0.0}, preview(judgement.evidence.last_word)
    )


ECHO: TaskEntry[EchoEvidence] = TaskEntry(
    name=Task.add("echo"),
    item=EchoItem,
    judge=echo_judge,
    reward=echo_reward,
    present=present_echo,
)

# -- the test ------------------------------------------------------------------------------


@pytest.fixture
def echo_service() -> Iterator[str]:
    """The real app with the echo task registered, served by uvicorn on loopback."""
    with registered(ECHO):
        settings = Settings(exploit_canary_interval_s=0, math_workers=1)
        port = free_port()
        config = uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=port, log_level="warning"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 120
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail("the service did not start")
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(timeout=60)


def test_a_task_registered_at_runtime_is_scored_over_http(echo_service: str) -> None:
    items = [
        {"task": "echo", "id": "yes", "completion": "say it: banana", "word": "banana"},
        {"task": "echo", "id": "no", "completion": "apple", "word": "banana"},
        {"task": "echo", "id": "bad", "completion": "banana"},  # no word
        {"task": "math", "id": "math", "completion": "\\boxed{4}", "reference": "4"},
    ]
    response = httpx.post(f"{echo_service}/score", json={"items": items}, timeout=120)
    assert response.status_code == 200, response.text
    yes, no, bad, math = response.json()["results"]
    assert (yes["task"], yes["reward"], yes["status"], yes["judge"]) == ("echo", 1.0, "ok", "rule")
    assert (yes["components"], yes["extracted"]) == ({"correct": 1.0}, "banana")
    assert (no["reward"], no["components"], no["detail"]) == (
        -1.0,
        {"correct": 0.0},
        "ends with 'apple'",
    )
    # The echo item model validates its items, as any task's does.
    assert bad["status"] == "error" and bad["reward"] is None
    assert "echo.word: Field required" in bad["detail"]
    # The built-in tasks are scored beside it, as before.
    assert (math["task"], math["reward"]) == ("math", 1.0)


def test_the_task_is_gone_once_unregistered() -> None:
    assert ECHO.name not in [entry.name for entry in entries()]
    with registered(ECHO):
        assert entries()[-1] is ECHO
    assert [entry.name.value for entry in entries()] == ["math", "code", "rubric", "critique"]
