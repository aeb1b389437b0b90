"""The verl adapter against the real service."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

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
        compute_score(
            "q",
            "```q\nsolve:{x*2}\n```",
            None,
            {"tests": [{"code": "show solve[2];", "expected": "4"}], "language": "q"},
            url=service_url,
        )


# -- every reward manager's call, as the manager makes it ------------------------------------


def test_naive_manager_keywords(service_url: str) -> None:
    # verl's naive/dapo managers: keywords, a dict with "score" (extras go to the logs).
    score = compute_score(data_source="gsm8k", solution_str="#### 18", ground_truth="18",
                          extra_info={"question": "?"}, url=service_url)  # fmt: skip
    assert isinstance(score, dict) and score["score"] == 1.0 and score["acc"] == 1.0


def _run_in_pool(calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """What both prime managers do: each call in a process pool, awaited with a timeout."""

    async def gather() -> list[Any]:
        loop = asyncio.get_running_loop()
        # spawn: a forked child would share this process's pooled connections to the service.
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as executor:
            futures = [loop.run_in_executor(executor, call) for call in calls]
            return list(await asyncio.gather(*(asyncio.wait_for(f, 120) for f in futures)))

    return asyncio.run(gather())


def test_upstream_prime_manager(service_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # verl's prime manager: partial(fn, task, completion, reference, extra_info) in a process
    # pool, then float(result) for numbers and float(result[0]) for anything else.
    monkeypatch.setenv("VERIFIER_URL", service_url)
    rows = [("math", "\\boxed{4}", "4"), ("math", "\\boxed{5}", "4")]
    results = _run_in_pool([partial(compute_score, s, c, r, None) for s, c, r in rows])
    scores = [float(r) if isinstance(r, int | float | bool) else float(r[0]) for r in results]
    assert scores == [1.0, -1.0]


def test_tinyv_fork_prime_manager(service_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # TinyV's fork: partial(fn, task, completion, reference, extra_info, tinyv_setup,
    # tinyv_weight), each wrapped in its own gather, then float(result[0][0]).
    monkeypatch.setenv("VERIFIER_URL", service_url)
    calls = [
        partial(compute_score, "bigmath_rl_tinyv", "\\boxed{4}", "4", {"question": "2+2?"},
                "addon", 1.0),
        partial(compute_score, "grade", "Fine work.\nTotal Score: 8/10", 0.6, None,
                "addon", 1.0),
        partial(compute_score, "grade", "Fine work, no grade.", 0.6, None, "addon", 1.0),
    ]  # fmt: skip
    results = [[r] for r in _run_in_pool(calls)]
    scores = [
        float(r[0]) if isinstance(r[0], int | float | bool) else float(r[0][0]) for r in results
    ]
    assert scores == pytest.approx([1.0, (1 - abs(0.8 - 0.6)) ** 2, 0.0])


def test_tinyv_setup_maps_to_the_mode(service_url: str) -> None:
    # This service has no LLM verifier: tinyv_only (verifier_only) cannot judge and says so,
    # which shows the row was sent in that mode; the rule alone judges other sources.
    with pytest.raises(RewardServiceError, match="verifier_only"):
        compute_score("math_tinyv", "\\boxed{4}", "4", {"question": "2+2?"}, "tinyv_only", 1.0,
                      url=service_url)  # fmt: skip
    plain = compute_score("math", "\\boxed{4}", "4", None, "tinyv_only", 1.0, url=service_url)
    assert plain["score"] == 1.0


def test_batch_manager_routes_each_row(service_url: str) -> None:
    scores = compute_score_batch(
        data_sources=["grade", "math", "grade"],
        solution_strs=["Total Score: 10/10", "\\boxed{7}", "Total Score: [3]"],
        ground_truths=[1.0, "7", 0.3],
        extra_infos=[None, None, None],
        url=service_url,
    )
    assert [s["score"] for s in scores] == pytest.approx([1.0, 1.0, 0.0])


def test_unknown_keywords_are_an_error(service_url: str) -> None:
    with pytest.raises(TypeError, match="tinyv_mode"):
        compute_score("math", "\\boxed{4}", "4", None, url=service_url,
                      tinyv_mode="addon")  # type: ignore[call-arg]  # fmt: skip
    with pytest.raises(TypeError):
        compute_score_batch(["math"], ["\\boxed{4}"], ["4"], url=service_url,
                            weights=[1.0])  # type: ignore[call-arg]  # fmt: skip
