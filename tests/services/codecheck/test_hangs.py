"""A hanging program costs one timeout: its other tests are skipped (counted as failed),
and a GRPO group's identical programs run once per request. Through the real service."""

from __future__ import annotations

import time
from typing import Any

import httpx

SPIN_S = 2.0
SPINNER = "```python\ndef f(x):\n    while True:\n        pass\n```"
TESTS = [{"code": f"assert f({x}) == {x}"} for x in range(5)]


def _spinner(**extra: Any) -> dict[str, Any]:
    return {
        "task": "code",
        "language": "python",
        "completion": SPINNER,
        "tests": TESTS,
        "timeout_s": SPIN_S,
        **extra,
    }


def _score(client: httpx.Client, items: list[dict[str, Any]], **options: Any) -> tuple[Any, float]:
    started = time.monotonic()
    response = client.post("/score", json={"items": items, "options": options})
    assert response.status_code == 200, response.text
    return response.json()["results"], time.monotonic() - started


def test_a_hang_skips_the_remaining_tests(client: httpx.Client) -> None:
    (result,), elapsed = _score(client, [_spinner()])
    components = result["components"]
    assert (components["tests_total"], components["tests_passed"]) == (5.0, 0.0)
    assert components["tests_skipped"] == 4.0
    assert result["reward"] == 0.0
    assert "4 more skipped after the first test timed out" in result["detail"]
    # The timeout is CPU time: five of them on the default service's two workers would take
    # at least 3 x SPIN_S; one takes SPIN_S, longer only while other work shares the cores.
    assert elapsed < 3 * SPIN_S


def test_every_test_runs_them_all(client: httpx.Client) -> None:
    (result,), _ = _score(client, [_spinner()], every_test=True)
    assert result["components"]["tests_skipped"] == 0.0
    assert "timeout=5" in result["detail"]


def test_a_group_of_identical_hangs_runs_once(client: httpx.Client) -> None:
    honest = {
        "task": "code",
        "language": "python",
        "completion": "```python\ndef f(x):\n    return x\n```",
        "tests": TESTS,
    }
    results, elapsed = _score(client, [_spinner() for _ in range(8)] + [honest])
    assert [r["components"]["tests_skipped"] for r in results[:8]] == [4.0] * 8
    assert results[8]["components"]["tests_passed"] == 5.0 and results[8]["reward"] == 2.0
    # Eight separate runs would hold two workers for at least 4 x SPIN_S.
    assert elapsed < 3 * SPIN_S
