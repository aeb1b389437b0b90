"""TinyV's verl fork (Python 3.10, its prime manager's fork-started pool) scoring through the
service with the adapter file loaded by path, where the project is not installed.

The fork's loop is re-implemented in tinyv_prime_loop.py; only its GPU side is stubbed (the
responses arrive decoded, the scores come back as a list, not in the reward tensor).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

REPO = Path(__file__).resolve().parents[3]
ADAPTER = REPO / "trainer" / "adapters" / "verl_reward.py"
FORK_LOOP = Path(__file__).with_name("tinyv_prime_loop.py")
PYENV = Path(os.environ.get("PYENV_ROOT", "/root/.pyenv")) / "versions"
TINYV_SCALE = {"correct": 1.0, "wrong": 0.0, "no_answer": 0.0}
DOUBLE = "```python\nprint(int(input()) * 2)\n```"
CODE_TRUTH = json.dumps({"inputs": ["2\n", "3\n"], "outputs": ["4\n", "7\n"]})
Q = "```q\nsolve:{x*2}\n```"
Q_TESTS = {"tests": [{"code": "show solve[2];", "expected": "4"}], "language": "q"}


def _python(minor: str) -> Path:
    found = sorted(PYENV.glob(f"{minor}.*/bin/python{minor}"))
    if not found:
        pytest.skip(f"no Python {minor} under {PYENV} (pyenv)")
    return found[-1]


def _run_fork(
    python: Path, rows: list[list[Any]], setup: str, weight: float, service_url: str
) -> tuple[list[float], str, subprocess.CompletedProcess[str]]:
    spec = {"path": str(ADAPTER), "name": "compute_score", "rows": rows,
            "tinyv_setup": setup, "tinyv_weight": weight}  # fmt: skip
    # -I: no PYTHONPATH, no user site, not the working directory: the project cannot be
    # imported. The service URL reaches the adapter the only way the fork allows: the env.
    env = {"PATH": os.environ["PATH"], "VERIFIER_URL": service_url}
    done = subprocess.run(
        [str(python), "-I", str(FORK_LOOP)], input=json.dumps(spec), capture_output=True,
        text=True, env=env, timeout=240, check=True,
    )  # fmt: skip
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return out["scores"], out["start_method"], done


def test_the_project_is_not_importable_there() -> None:
    python = _python("3.10")
    done = subprocess.run([str(python), "-I", "-c", "import trainer"], capture_output=True)
    assert done.returncode != 0


def test_the_fork_gives_the_services_rewards(service_url: str, client: httpx.Client) -> None:
    python = _python("3.10")
    rows: list[list[Any]] = [
        ["bigmath_rl_tinyv", "\\boxed{4}", "4", {"question": "2 + 2?"}],
        ["bigmath_rl_tinyv", "\\boxed{5}", "4", {"question": "2 + 2?"}],
        ["HardVerify-Math", "so the answer is 12", "12", {"question": "3 * 4?"}],
        ["gsm8k", "#### 7", "7", None],
        ["gsm8k", "#### 8", "7", None],
        ["codecontests", DOUBLE, CODE_TRUTH, None],
        ["grade", "Total Score: 6/10", 0.6, None],
    ]
    scores, start_method, done = _run_fork(python, rows, "addon", 1.0, service_url)
    assert start_method == "fork"
    # The same items through /score: TinyV's 1/0/0 scale, addon for the verifier's sources
    # (this service has no LLM verifier: the rule's verdict, marked unavailable), rule else.
    items = [
        {"task": "math", "completion": r[1], "reference": r[2], "prompt": r[3]["question"]}
        for r in rows[:3]
    ] + [{"task": "math", "completion": r[1], "reference": r[2]} for r in rows[3:5]] + [
        {"task": "code", "language": "python", "completion": DOUBLE, "tests": CODE_TRUTH},
        {"task": "critique", "completion": "Total Score: 6/10", "reference": 0.6},
    ]  # fmt: skip
    addon = _score(client, items[:3], mode="addon", verifier_weight=1.0, **TINYV_SCALE)
    rule = _score(client, items[3:], mode="rule", **TINYV_SCALE)
    assert scores == [r["reward"] for r in addon + rule] == [1.0, 0.0, 1.0, 1.0, 0.0, 0.5, 1.0]
    # The wrong addon answer fell back to the rule: the adapter says so on stderr.
    assert [r["status"] for r in addon] == ["ok", "unavailable", "ok"]
    assert done.stderr.count("'bigmath_rl_tinyv' item judged unavailable") == 1
    assert "Error processing completion" not in done.stdout


@pytest.mark.skipif(bool(os.environ.get("Q_BIN")), reason="needs a service without q")
def test_an_unjudged_item_stops_the_forks_step_with_the_reason(service_url: str) -> None:
    # The fork turns an Exception of the reward function into 0.0; the adapter's errors are
    # not Exceptions, so they cross the process pool and its handler, and the step stops
    # (q code on a service without q cannot be judged).
    python = _python("3.10")
    rows: list[list[Any]] = [["q_code", Q, None, Q_TESTS], ["gsm8k", "#### 7", "7", None]]
    spec = {"path": str(ADAPTER), "name": "compute_score", "rows": rows,
            "tinyv_setup": "addon", "tinyv_weight": 1.0}  # fmt: skip
    env = {"PATH": os.environ["PATH"], "VERIFIER_URL": service_url}
    done = subprocess.run(
        [str(python), "-I", str(FORK_LOOP)], input=json.dumps(spec), capture_output=True,
        text=True, env=env, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert "UnjudgedItemError: the service could not judge a 'q_code' item (unavailable)" in (
        done.stderr
    )
    assert "Error processing completion" not in done.stdout  # the fork's 0.0 path
    assert '"scores"' not in done.stdout


@pytest.mark.parametrize("minor", ["3.9", "3.10", "3.12", "3.13"])
def test_the_file_runs_on_each_python(minor: str, service_url: str) -> None:
    # Loaded by path as verl's loader does, in an interpreter without the project.
    python = _python(minor)
    code = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('custom_module_1', {str(ADAPTER)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "score = module.compute_score(data_source='math', solution_str='\\\\boxed{4}',\n"
        f"    ground_truth='4', extra_info={{}}, url={service_url!r})\n"
        "print(json.dumps(score))\n"
    )
    done = subprocess.run([str(python), "-I", "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    assert json.loads(done.stdout)["score"] == 1.0


def _score(client: httpx.Client, items: list[dict[str, Any]], **options: Any) -> list[Any]:
    response = client.post("/score", json={"items": items, "options": options})
    response.raise_for_status()
    results: list[Any] = response.json()["results"]
    return results
