"""The reward stage of verl steps, timed in verl 0.9's own reward loop; run in the verl venv.

Part of ``benchmarks/verl_reward_bench.py``, which starts the service, writes the steps and
runs this file with verl's venv (scripts/verl-env.sh). For each step: a
``RewardLoopManager`` (verl's, its reward loop workers Ray actors on a local CPU cluster,
``reward.num_workers`` of them, the naive manager) with the adapter loaded by path under the
step's function name; a small warm-up batch of other items (actors started, function loaded,
first connection made); then ``compute_rm_score`` on the step's batch, timed, with the
``POST /score`` requests the service answered meanwhile (its ``/metrics``). The workers are
killed after each step, so each one starts the same way.

Stubbed, because it needs a GPU: the rollout. The batch is built the way the rollout hands it
over (left-padded prompts, right-padded responses tokenized by the step's tokenizer, the
attention mask, ``data_source``, ``reward_model.ground_truth``, ``extra_info``).

Input on stdin: ``{"service_url", "tokenizer", "adapter", "workers", "warmup": rows,
"steps": [{"function", "rows": [[data_source, solution, ground_truth, extra_info]]}]}``.
Output on stdout, last line: ``{"steps": [{"function", "seconds", "requests",
"requests_by_code", "scores"}]}``.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import urllib.request
from typing import Any

import numpy as np
import ray
import torch
from omegaconf import DictConfig, OmegaConf
from verl import DataProto
from verl.experimental.reward_loop import RewardLoopManager
from verl.utils import hf_tokenizer


def make_config(spec: dict[str, Any], function: str) -> DictConfig:
    """The part of verl's trainer config that the reward loop reads."""
    config = {
        "actor_rollout_ref": {"model": {"path": spec["tokenizer"], "tokenizer_path": None}},
        "reward": {
            "num_workers": spec["workers"],
            "reward_manager": {"name": "naive", "source": "register"},
            "custom_reward_function": {
                "path": spec["adapter"],
                "name": function,
                "reward_kwargs": {"url": spec["service_url"]},
            },
            "reward_model": {"enable": False, "enable_resource_pool": False},
        },
    }
    return OmegaConf.create(config)


def make_batch(tokenizer: Any, rows: list[list[Any]]) -> DataProto:
    prompts = [tokenizer.encode(row[3]["question"], add_special_tokens=False) for row in rows]
    responses = [tokenizer.encode(row[1], add_special_tokens=False) for row in rows]
    prompt_len = max(map(len, prompts))
    response_len = max(map(len, responses))
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    prompt_ids, response_ids, mask = [], [], []
    for prompt, response in zip(prompts, responses, strict=True):
        prompt_ids.append([pad] * (prompt_len - len(prompt)) + prompt)
        response_ids.append(response + [pad] * (response_len - len(response)))
        mask.append(
            [0] * (prompt_len - len(prompt))
            + [1] * (len(prompt) + len(response))
            + [0] * (response_len - len(response))
        )
    prompt_tensor = torch.tensor(prompt_ids)
    response_tensor = torch.tensor(response_ids)
    return DataProto.from_dict(
        tensors={
            "prompts": prompt_tensor,
            "responses": response_tensor,
            "input_ids": torch.cat([prompt_tensor, response_tensor], dim=1),
            "attention_mask": torch.tensor(mask),
        },
        non_tensors={
            "data_source": np.array([row[0] for row in rows], dtype=object),
            "reward_model": np.array([{"ground_truth": row[2]} for row in rows], dtype=object),
            "extra_info": np.array([dict(row[3]) for row in rows], dtype=object),
        },
    )


def score_requests(service_url: str) -> dict[str, float]:
    """``POST /score`` requests the service has answered so far, by status code (its own
    /metrics)."""
    with urllib.request.urlopen(f"{service_url}/metrics", timeout=60) as response:
        text = response.read().decode()
    counts: dict[str, float] = {}
    for labels, value in re.findall(r"^verifier_requests_total\{([^}]*)\} (\S+)$", text, re.M):
        code = re.search(r'code="(\d+)"', labels)
        if 'route="/score"' in labels and code:
            counts[code.group(1)] = counts.get(code.group(1), 0.0) + float(value)
    return counts


def run_step(spec: dict[str, Any], tokenizer: Any, step: dict[str, Any]) -> dict[str, Any]:
    manager = RewardLoopManager(make_config(spec, step["function"]))
    try:
        manager.compute_rm_score(make_batch(tokenizer, spec["warmup"]))
        batch = make_batch(tokenizer, step["rows"])
        before = score_requests(spec["service_url"])
        started = time.perf_counter()
        out = manager.compute_rm_score(batch)
        seconds = time.perf_counter() - started
        after = score_requests(spec["service_url"])
        by_code = {code: after[code] - before.get(code, 0.0) for code in after}
    finally:
        for worker in manager.reward_loop_workers:
            ray.kill(worker)
        for index in range(spec["workers"]):
            wait_until_gone(f"reward_loop_worker_{index}")
    return {
        "function": step["function"],
        "seconds": seconds,
        "requests": sum(by_code.values()),
        "requests_by_code": {code: count for code, count in by_code.items() if count},
        "scores": out.batch["rm_scores"].sum(dim=-1).tolist(),
    }


def wait_until_gone(name: str) -> None:
    # The next manager names its workers the same; Ray frees a name once the actor is dead.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            ray.get_actor(name)
        except ValueError:
            return
        time.sleep(0.2)
    raise TimeoutError(f"actor {name} still alive")


def main() -> None:
    spec = json.load(sys.stdin)
    tokenizer = hf_tokenizer(spec["tokenizer"])
    ray.init(
        address="local",
        num_cpus=max(4, spec["workers"]),
        include_dashboard=False,
        logging_level=logging.ERROR,
    )
    try:
        steps = []
        for step in spec["steps"]:
            steps.append(run_step(spec, tokenizer, step))
            print(
                f"{step['function']}: {steps[-1]['seconds']:.2f} s, "
                f"{steps[-1]['requests']:.0f} requests",
                file=sys.stderr,
                flush=True,
            )
    finally:
        ray.shutdown()
    print(json.dumps({"steps": steps}))


if __name__ == "__main__":
    main()
