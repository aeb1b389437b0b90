"""verl 0.9's released reward code calling the service through trainer/adapters/verl_reward.py.

verl runs in its own venv (scripts/verl-env.sh, part of ``make install-dev``); the driver,
verl_reward_loop.py (run by verl_runs.py, from conftest.py), says what of verl runs and what
is stubbed (the GPU rollout).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.trainer.adapters.verl_spec import CODE_TRUTH, CRITIQUE, DOUBLE, ROWS, VERL_PYTHON
from trainer.adapters.verl_reward import RESULT_KEYS

ITEMS: list[dict[str, Any]] = [
    {"task": "math", "completion": "so #### 18", "reference": "18", "prompt": "9 + 9?"},
    {"task": "math", "completion": "\\boxed{5}", "reference": "4"},
    {"task": "code", "language": "python", "completion": DOUBLE, "tests": CODE_TRUTH},
    {"task": "critique", "completion": CRITIQUE, "reference": 0.6},
]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(900),
    pytest.mark.skipif(
        not VERL_PYTHON.exists(),
        reason="verl's venv is missing: scripts/verl-env.sh (run by make install-dev) builds it",
    ),
]


@pytest.fixture(scope="module")
def verl_run(verl_runs: dict[str, Any]) -> dict[str, Any]:
    """verl's loader, its managers, and its reward loop on Ray (conftest.py runs them)."""
    return dict(verl_runs["loop"])


@pytest.fixture(scope="module")
def served(service_url: str) -> list[float]:
    """The same items through ``/score``."""
    response = httpx.post(f"{service_url}/score", json={"items": ITEMS}, timeout=120)
    response.raise_for_status()
    rewards = [result["reward"] for result in response.json()["results"]]
    assert rewards == pytest.approx([1.0, -1.0, 0.5, (1 - abs(0.8 - 0.6)) ** 2])
    return rewards


def test_verl_decodes_the_responses_the_batch_holds(verl_run: dict[str, Any]) -> None:
    assert verl_run["decoded"] == [row[1] for row in ROWS]


@pytest.mark.parametrize("loader", ["path", "pkg", "path-async", "pkg-async"])
def test_verl_loader_from_a_file_and_a_module(
    verl_run: dict[str, Any], served: list[float], loader: str
) -> None:
    scores = verl_run["loader"][loader]
    assert [score["score"] for score in scores] == served
    assert all(tuple(score) == RESULT_KEYS for score in scores)


@pytest.mark.parametrize("manager", ["naive-router", "dapo", "naive-router-async", "dapo-async"])
def test_reward_managers_in_process(
    verl_run: dict[str, Any], served: list[float], manager: str
) -> None:
    # naive-router: a reward router is set, so verl adds reward_router_address= and
    # reward_model_tokenizer= to every call.
    assert verl_run["managers"][manager] == served


@pytest.mark.parametrize(
    ("run", "requests"),
    [("naive-path", 4), ("remote-path", 4), ("remote-pkg", 4), ("naive-async-path", 1),
     ("naive-async-pkg", 1)],
)  # fmt: skip
def test_reward_loop_aggregates_a_mixed_batch(
    verl_run: dict[str, Any], served: list[float], run: str, requests: int
) -> None:
    # RewardLoopManager.compute_rm_score: the scores at each response's last token, and one
    # column per extra key. remote-path is the function loaded from a file, pickled to
    # another Ray actor. compute_score sends one request per sample; compute_score_async,
    # which verl's loop awaits, sends the batch's four samples in one.
    out = verl_run["loop"][run]
    assert out["requests"] == requests
    assert out["scores"] == pytest.approx(served, rel=1e-6)  # rm_scores are float32
    assert out["keys"] == list(RESULT_KEYS)
    assert out["extra"]["score"] == served
    assert out["extra"]["tests_total"] == [0.0, 0.0, 2.0, 0.0]
    assert out["extra"]["acc"] == [1.0, 0.0, 0.0, 0.0]
