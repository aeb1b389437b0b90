"""verl 0.9's released reward code calling the service through trainer/adapters/verl_reward.py.

verl runs in its own venv (scripts/verl-env.sh, part of ``make install-dev``); the driver,
verl_reward_loop.py, says what of verl runs and what is stubbed (the GPU rollout).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from trainer.adapters.verl_reward import RESULT_KEYS

REPO = Path(__file__).resolve().parents[3]
VERL_PYTHON = REPO / ".cache" / "verl" / "bin" / "python"
DRIVER = Path(__file__).with_name("verl_reward_loop.py")
ADAPTER = REPO / "trainer" / "adapters" / "verl_reward.py"
DOUBLE = "```python\nprint(int(input()) * 2)\n```"
CODE_TRUTH = json.dumps({"inputs": ["2\n", "3\n"], "outputs": ["4\n", "7\n"]})
CRITIQUE = "Fine work.\nTotal Score: 8/10"

# A mixed batch: math right and wrong, code in verl's own data format, a graded critique. Each
# task gives the service different components; verl must still aggregate one key set.
ROWS: list[list[Any]] = [
    ["gsm8k", "so #### 18", "18", {"question": "9 + 9?"}],
    ["math", "\\boxed{5}", "4", None],
    ["codecontests", DOUBLE, CODE_TRUTH, {"index": 3}],
    ["grade", CRITIQUE, 0.6, None],
]
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
def verl_run(service_url: str, tiny_model_dir: Path) -> Iterator[dict[str, Any]]:
    """One run of the driver: verl's loader, its managers, and its reward loop on Ray."""
    spec = {"service_url": service_url, "tokenizer": str(tiny_model_dir),
            "adapter": str(ADAPTER), "rows": ROWS}  # fmt: skip
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    done = subprocess.run(
        [str(VERL_PYTHON), str(DRIVER)], input=json.dumps(spec), capture_output=True,
        text=True, env=env, timeout=800, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-5000:]
    yield json.loads(done.stdout.strip().splitlines()[-1])


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
