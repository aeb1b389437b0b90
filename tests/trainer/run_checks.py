"""Checks shared by the tests that run real GRPO training: the logged rewards are the
service's, and TRL's logged means are theirs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from trainer.config import TrainerConfig
from trainer.training import DEBUG_FILE, METRICS_FILE


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rescore(service_url: str, records: list[dict[str, Any]], cfg: TrainerConfig) -> list[Any]:
    """Send the logged completions to the service again, as a plain /score request."""
    items = []
    for r in records:
        if r["task"] == "math":
            items.append(
                {"task": "math", "completion": r["completion"], "reference": r["reference"]}
            )
        else:
            items.append(
                {
                    "task": "code",
                    "language": r["language"],
                    "completion": r["completion"],
                    "tests": [{k: v for k, v in t.items() if v is not None} for t in r["tests"]],
                    "max_tests": cfg.reward.max_tests,
                }
            )
    response = httpx.post(
        f"{service_url}/score", timeout=120, json={"items": items, "options": cfg.reward.options()}
    )
    return [result["reward"] for result in response.json()["results"]]


def check_logged_rewards(out: Path, service_url: str, cfg: TrainerConfig, steps: int) -> None:
    records = read_jsonl(out / DEBUG_FILE)
    # One reward call per step (steps_per_generation = accumulation), every completion logged.
    group = cfg.completions_per_device() * cfg.training.gradient_accumulation_steps
    assert len(records) == steps * group
    # 1. The rewards the trainer used are what the service says about those completions.
    assert [r["reward"] for r in records] == rescore(service_url, records, cfg)
    # 2. TRL's logged mean reward per step is the mean of those rewards.
    metrics = {m["step"]: m for m in read_jsonl(out / METRICS_FILE) if "reward" in m}
    for step in range(steps):
        logged = [r["reward"] for r in records if r["step"] == step]
        assert metrics[step + 1]["reward"] == pytest.approx(sum(logged) / len(logged), abs=1e-5)
        assert metrics[step + 1]["rewards/verifier/mean"] == pytest.approx(
            sum(logged) / len(logged), abs=1e-5
        )
