"""verl 0.9's own reward code scoring rows through the service; run in the verl venv.

Drives verl's released code (the venv made by scripts/verl-env.sh), for test_verl_loop.py:

- its custom reward loader (``get_custom_reward_fn``) with ``path:`` a file and
  ``pkg://trainer.adapters.verl_reward``, each called as the reward loop calls it, for
  ``compute_score`` and ``compute_score_async``;
- its naive reward manager with a reward router set, so it passes
  ``reward_router_address=`` and ``reward_model_tokenizer=``, and its dapo manager, each
  with both functions;
- ``RewardLoopManager.compute_rm_score`` on Ray (a local CPU cluster): the naive manager with
  both functions, and the remote manager that ships the function to another Ray actor, from
  a file and from ``pkg://``; each run counts the ``/score`` requests the service answered.

Stubbed, because they need a GPU: the rollout. The batch is built the way the rollout hands
it over (left-padded prompts, right-padded responses, the attention mask, ``data_source``,
``reward_model.ground_truth``, ``extra_info``), with the responses tokenized by the tiny
model's tokenizer, which verl decodes back.

``results(spec)`` takes ``{"service_url", "tokenizer", "adapter", "rows": [[data_source,
solution, ground_truth, extra_info]]}``; verl_runs.py calls it.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import time
import urllib.request
from typing import Any

import numpy as np
import ray
import torch
from omegaconf import DictConfig, OmegaConf
from verl import DataProto
from verl.experimental.reward_loop import RewardLoopManager
from verl.trainer.ppo.reward import get_custom_reward_fn, load_reward_manager
from verl.utils import hf_tokenizer

PKG = "pkg://trainer.adapters.verl_reward"
ASYNC = "compute_score_async"


def make_config(
    spec: dict[str, Any], path: str, manager: str, name: str = "compute_score"
) -> DictConfig:
    """The part of verl's trainer config that the reward loop reads."""
    config = {
        "actor_rollout_ref": {"model": {"path": spec["tokenizer"], "tokenizer_path": None}},
        "reward": {
            "num_workers": 1,
            "reward_manager": {"name": manager, "source": "register"},
            "custom_reward_function": {
                "path": path,
                "name": name,
                "reward_kwargs": {"url": spec["service_url"]},
            },
            "reward_model": {"enable": False, "enable_resource_pool": False},
        },
    }
    return OmegaConf.create(config)


def score_requests(service_url: str) -> float:
    """``POST /score`` requests the service has answered so far, from its own /metrics."""
    with urllib.request.urlopen(f"{service_url}/metrics", timeout=30) as response:
        text = response.read().decode()
    pattern = r"^verifier_requests_total\{[^}]*route=\"/score\"[^}]*\} (\S+)$"
    return sum(float(value) for value in re.findall(pattern, text, flags=re.MULTILINE))


def make_batch(tokenizer: Any, rows: list[list[Any]]) -> DataProto:
    prompts = [tokenizer.encode("Solve it.", add_special_tokens=False) for _ in rows]
    responses = [tokenizer.encode(row[1], add_special_tokens=False) for row in rows]
    prompt_len = max(map(len, prompts))
    response_len = max(map(len, responses))
    pad = tokenizer.pad_token_id
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
            "extra_info": np.array([dict(row[3] or {}) for row in rows], dtype=object),
        },
    )


def call_as_the_loop_does(
    spec: dict[str, Any], path: str, name: str = "compute_score"
) -> list[dict[str, float]]:
    function = get_custom_reward_fn(make_config(spec, path, "naive", name))
    assert function is not None
    calls = [
        function(data_source=r[0], solution_str=r[1], ground_truth=r[2], extra_info=r[3])
        for r in spec["rows"]
    ]
    # verl awaits what its loader wrapped as a coroutine function.
    is_async = inspect.iscoroutinefunction(function.func)
    assert is_async == (name == "compute_score_async")
    if is_async:

        async def every() -> list[Any]:
            return list(await asyncio.gather(*calls))

        calls = asyncio.run(every())
    return [dict(score) for score in calls]


def run_manager(
    spec: dict[str, Any],
    tokenizer: Any,
    batch: DataProto,
    name: str,
    router: str | None,
    function: str = "compute_score",
) -> list[float]:
    """A reward manager's ``run_single`` on each row, in the manager's own event loop. With a
    router address the manager passes the reward-model keywords; nothing listens on it, and
    nothing must try to."""
    manager = load_reward_manager(
        make_config(spec, spec["adapter"], name, function),
        tokenizer,
        reward_router_address=router,
        reward_model_tokenizer=tokenizer if router else None,
    )
    outputs = [
        manager.loop.run_until_complete(manager.run_single(batch[i : i + 1]))
        for i in range(len(batch))
    ]
    return [float(output["reward_score"]) for output in outputs]


def reward_loop(
    spec: dict[str, Any], batch: DataProto, path: str, manager: str, name: str = "compute_score"
) -> Any:
    loop_manager = RewardLoopManager(make_config(spec, path, manager, name))
    try:
        before = score_requests(spec["service_url"])
        out = loop_manager.compute_rm_score(batch)
        requests = score_requests(spec["service_url"]) - before
    finally:
        for worker in loop_manager.reward_loop_workers:
            ray.kill(worker)
        _wait_until_gone("reward_loop_worker_0")
    keys = list(out.meta_info["reward_extra_keys"])
    return {
        "scores": out.batch["rm_scores"].sum(dim=-1).tolist(),
        "requests": requests,
        "keys": keys,
        "extra": {key: [float(v) for v in out.non_tensor_batch[key]] for key in keys},
    }


def _wait_until_gone(name: str) -> None:
    # The next manager names its worker the same; Ray frees a name once the actor is dead.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            ray.get_actor(name)
        except ValueError:
            return
        time.sleep(0.2)
    raise TimeoutError(f"actor {name} still alive")


def results(spec: dict[str, Any]) -> dict[str, Any]:
    """Every run above, for ``spec``; Ray must be initialised (the loop's runs use it)."""
    tokenizer = hf_tokenizer(spec["tokenizer"])
    batch = make_batch(tokenizer, spec["rows"])
    decoded = tokenizer.batch_decode(batch.batch["responses"], skip_special_tokens=True)
    return {
        "decoded": decoded,
        "loader": {
            "path": call_as_the_loop_does(spec, spec["adapter"]),
            "pkg": call_as_the_loop_does(spec, PKG),
            "path-async": call_as_the_loop_does(spec, spec["adapter"], ASYNC),
            "pkg-async": call_as_the_loop_does(spec, PKG, ASYNC),
        },
        "managers": {
            "naive-router": run_manager(spec, tokenizer, batch, "naive", "127.0.0.1:9"),
            "dapo": run_manager(spec, tokenizer, batch, "dapo", None),
            "naive-router-async": run_manager(
                spec, tokenizer, batch, "naive", "127.0.0.1:9", ASYNC
            ),
            "dapo-async": run_manager(spec, tokenizer, batch, "dapo", None, ASYNC),
        },
        "loop": {
            "naive-path": reward_loop(spec, batch, spec["adapter"], "naive"),
            "remote-path": reward_loop(spec, batch, spec["adapter"], "remote"),
            "remote-pkg": reward_loop(spec, batch, PKG, "remote"),
            "naive-async-path": reward_loop(spec, batch, spec["adapter"], "naive", ASYNC),
            "naive-async-pkg": reward_loop(spec, batch, PKG, "naive", ASYNC),
        },
    }
