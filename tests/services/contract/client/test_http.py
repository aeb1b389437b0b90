"""Client and AsyncClient against the real service on loopback, and against a scripted
server for the answers a healthy service rarely gives (429, 5xx)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

from services.contract.client import (
    AsyncClient,
    Client,
    ClientSettings,
    ExtractionPolicy,
    GradeResponse,
    RewardOptions,
    RewardServiceError,
    ScoreResult,
    Status,
)
from services.tasks.math.wire import MathItem
from tests.conftest import API_KEY
from tests.scripted_server import serving

GRADED = {
    "correct": True,
    "status": "ok",
    "method": "rule",
    "probability": None,
    "extracted_answer": "4",
    "extracted_reference": "4",
    "explanation": "correct",
}


def test_importing_the_client_loads_no_part_of_the_server() -> None:
    probe = (
        "import sys, services.contract.client\n"
        "heavy = ('fastapi', 'uvicorn', 'sympy', 'math_verify', 'sandbox', 'services.mathcheck',"
        " 'services.scoring', 'services.app', 'trainer')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m.startswith(heavy)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_score_grade_and_health(service_url: str) -> None:
    items: list[MathItem | dict[str, Any]] = [
        MathItem(id="typed", completion="\\boxed{4}", reference="4"),
        {"task": "math", "id": 2, "completion": "The answer is 5", "reference": 4},
        {"task": "math", "id": 3, "completion": "\\boxed{0.1}", "reference": 0.1},
        {"task": "math", "id": 4, "completion": "\\boxed{4}"},
        {"task": "math", "id": 5, "completion": "I give up", "reference": "4"},
    ]
    # max_batch 2: three requests, results still in the items' order.
    with Client(service_url, max_batch=2) as client:
        assert client.health().status == "ok"
        assert client.ready().ready is True
        results = client.score(items, RewardOptions(no_answer=-0.25))
        assert all(isinstance(r, ScoreResult) for r in results)
        assert [r.id for r in results] == ["typed", 2, 3, 4, 5]
        assert [r.reward for r in results] == [1.0, -1.0, 1.0, None, -0.25]
        assert results[3].status is Status.ERROR and "reference" in results[3].detail
        verdict = client.grade("So we get $\\frac{1}{2}$", 0.5)
        assert isinstance(verdict, GradeResponse)
        assert verdict.correct is True and verdict.extracted_reference == "0.5"
        # /grade's extraction option: a marked-only policy finds no answer here.
        marked = client.grade("So we get $\\frac{1}{2}$", 0.5, extraction=ExtractionPolicy.MARKED)
        assert marked.correct is False and "no final answer" in marked.explanation
        prompt = "What is 2+2? "
        rewards = client.get_reward(
            [prompt + "\\boxed{4}", prompt + "\\boxed{5}"], [prompt, prompt], ["4", 4]
        )
        assert rewards.rewards == [1.0, -1.0] and rewards.extra_logs["correct"] == [1.0, 0.0]


def test_async_client(service_url: str) -> None:
    async def run() -> tuple[list[ScoreResult], GradeResponse, str]:
        async with AsyncClient([service_url, service_url], max_batch=3) as client:
            items = [
                {"task": "math", "completion": f"\\boxed{{{n}}}", "reference": n} for n in range(7)
            ]
            results = await client.score(items)
            verdict = await client.grade("\\boxed{x^2}", "x**2")
            return results, verdict, (await client.health()).version

    results, verdict, version = asyncio.run(run())
    assert [r.index for r in results] == [0, 1, 2, 0, 1, 2, 0]  # index within its request
    assert [r.reward for r in results] == [1.0] * 7
    assert verdict.correct is True and version


def test_a_refused_request_fails_at_once(strict_service_url: str) -> None:
    anonymous = Client(strict_service_url, retries=5, backoff_s=5)
    with anonymous, pytest.raises(RewardServiceError, match="HTTP 401"):
        anonymous.grade("4", "4")
    with Client(strict_service_url, api_key=API_KEY) as client:
        assert client.grade("4", "4").correct is True
        with pytest.raises(RewardServiceError, match="HTTP 422"):
            client.score([{"task": "math", "completion": "4", "reference": "4"}], {"bad": 1})


def test_a_full_queue_is_waited_out_without_using_an_attempt() -> None:
    busy = (429, {"detail": "queue full"})
    with (
        serving([busy, busy, (200, GRADED)]) as server,
        Client(server.url, retries=0, backoff_s=0.01) as client,
    ):
        assert client.grade("4", "4").correct is True
        assert server.requests == 3


def test_server_errors_are_retried_then_reported() -> None:
    failing = (503, {"detail": "restarting"})
    with (
        serving([failing, (200, GRADED)]) as server,
        Client(server.url, retries=1, backoff_s=0.01) as client,
    ):
        assert client.grade("4", "4").correct is True
    with serving([failing]) as server, Client(server.url, retries=2, backoff_s=0.01) as client:
        with pytest.raises(RewardServiceError, match="unreachable after 3 attempts"):
            client.health()
        assert server.requests == 3


def test_settings_name_the_urls_and_the_policy() -> None:
    settings = ClientSettings.for_urls(["http://a:1/", "http://b:2"], "key", retries=2)
    assert settings.urls == ("http://a:1", "http://b:2")
    assert settings.headers() == {"Authorization": "Bearer key"}
    assert settings.attempts == 3
    with pytest.raises(ValueError, match="no reward service URL"):
        Client([])
    with pytest.raises(TypeError):
        Client(settings, retries=1)
