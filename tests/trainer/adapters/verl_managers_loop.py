"""Every reward manager verl 0.9 registers, scoring through the adapter while the service
cannot be reached, cannot judge an item, or hangs; run in the verl venv by verl_runs.py.

For each manager in verl's own registry (``naive``, ``dapo``, ``gdpo``, ``rate_limited``,
``remote``), with ``compute_score`` and with ``compute_score_async``, a 3-row batch goes
through ``RewardLoopWorker.compute_score_batch``: the code that ``RewardLoopManager`` runs in
each of its Ray actors (one task per sample, gathered), run here in this process so that
each run's outcome is the manager's own. The ``remote`` manager still ships the function to
its Ray actors. Then two runs of the whole ``RewardLoopManager.compute_rm_score`` on Ray
show the error crossing Ray and stopping the step, where verl aggregates the results.

Faults, all real: ``unreachable`` is a closed port on loopback; ``unjudged`` is a row whose
ground truth is missing, which the running service cannot judge; ``hung`` is a listening
socket that never answers, under the rate_limited manager's ``reward.timeout`` of 1 s.

``results(spec)`` takes ``{"service_url", "tokenizer", "adapter"}`` and returns
``{"registered": [...], "runs": {"<manager>/<function>/<fault>": outcome}}``,
each outcome ``{"outcome": "scored" | "stopped" | "refused", "scores", "extra", "error",
"reason"}``.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import ray
from omegaconf import DictConfig, OmegaConf
from verl import DataProto
from verl.experimental.reward_loop import RewardLoopManager, RewardLoopWorker
from verl.experimental.reward_loop.reward_manager.registry import REWARD_MANAGER
from verl.utils import hf_tokenizer

from tests.trainer.adapters.verl_reward_loop import _wait_until_gone, make_batch

FUNCTIONS = ("compute_score", "compute_score_async")
GOOD: list[list[Any]] = [
    ["gsm8k", "so #### 18", "18", {"question": "9 + 9?"}],
    ["math", "\\boxed{5}", "4", None],
]
ROWS: dict[str, list[list[Any]]] = {
    "unreachable": [GOOD[0], GOOD[1], GOOD[0]],
    "unjudged": [GOOD[0], ["gsm8k", "#### 7", None, None], GOOD[1]],
}


def make_config(
    spec: dict[str, Any],
    manager: str,
    function: str,
    url: str,
    timeout: float = 60.0,
    **adapter: Any,
) -> DictConfig:
    """The part of verl's trainer config that the reward loop and these managers read."""
    config = {
        "actor_rollout_ref": {"model": {"path": spec["tokenizer"], "tokenizer_path": None}},
        "trainer": {"experiment_name": "managers"},  # gdpo adds it to extra_info
        "reward": {
            "num_workers": 1,
            "reward_manager": {"name": manager, "source": "register"},
            "custom_reward_function": {
                "path": spec["adapter"],
                "name": function,
                "reward_kwargs": {"url": url, **adapter},
            },
            "reward_model": {"enable": False, "enable_resource_pool": False},
            # rate_limited: enough calls at once for a batch to gather (its default is 1),
            # and its timeout: past the adapter's retries (about 10 s against a closed
            # port), 1 s for the hung service.
            "max_concurrent": 64,
            "timeout": timeout,
        },
    }
    return OmegaConf.create(config)


def outcome(run: Callable[[], list[dict[str, Any]]]) -> dict[str, Any]:
    try:
        outputs = run()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # the adapter's errors are BaseExceptions, by design
        return {"outcome": "stopped", "error": type(error).__name__, "reason": str(error)}
    return {
        "outcome": "scored",
        "scores": [float(output["reward_score"]) for output in outputs],
        "extra": [output.get("reward_extra_info", {}) for output in outputs],
    }


def in_worker(config: DictConfig, batch: DataProto) -> dict[str, Any]:
    """verl's reward loop worker, in this thread's event loop, on the batch."""
    try:
        worker = RewardLoopWorker(config)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # a manager that refuses the function at start
        return {"outcome": "refused", "error": type(error).__name__, "reason": str(error)}
    return outcome(lambda: list(worker.loop.run_until_complete(worker.compute_score_batch(batch))))


def on_ray(config: DictConfig, batch: DataProto) -> dict[str, Any]:
    """The whole of ``RewardLoopManager.compute_rm_score``, its worker a Ray actor."""
    manager = RewardLoopManager(config)

    def run() -> list[dict[str, Any]]:
        out = manager.compute_rm_score(batch)
        return [{"reward_score": score} for score in out.batch["rm_scores"].sum(dim=-1).tolist()]

    try:
        return outcome(run)
    finally:
        for worker in manager.reward_loop_workers:
            ray.kill(worker)
        _wait_until_gone("reward_loop_worker_0")


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def results(spec: dict[str, Any]) -> dict[str, Any]:
    """Every run above, for ``spec``; Ray must be initialised."""
    tokenizer = hf_tokenizer(spec["tokenizer"])
    batches = {fault: make_batch(tokenizer, rows) for fault, rows in ROWS.items()}
    unreachable = f"http://127.0.0.1:{closed_port()}"
    urls = {"unreachable": unreachable, "unjudged": spec["service_url"]}
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)  # accepts connections (the kernel does), never answers
    hung = f"http://127.0.0.1:{silent.getsockname()[1]}"
    runs: dict[str, Any] = {}
    lock = threading.Lock()

    def one_manager(manager: str) -> None:
        # One thread per manager, its scenarios in turn in that thread's event loop.
        for function in FUNCTIONS:
            for fault, batch in batches.items():
                config = make_config(spec, manager, function, urls[fault])
                result = in_worker(config, batch)
                with lock:
                    runs[f"{manager}/{function}/{fault}"] = result
        if manager == "rate_limited":
            for function in FUNCTIONS:
                config = make_config(spec, manager, function, hung, 1.0, timeout_s=2)
                result = in_worker(config, batches["unreachable"])
                with lock:
                    runs[f"{manager}/{function}/hung"] = result

    try:
        with ThreadPoolExecutor(len(REWARD_MANAGER)) as pool:
            list(pool.map(one_manager, sorted(REWARD_MANAGER)))
        runs["rate_limited/compute_score_async/unjudged/ray"] = on_ray(
            make_config(spec, "rate_limited", "compute_score_async", spec["service_url"]),
            batches["unjudged"],
        )
        runs["rate_limited/compute_score/unreachable/ray"] = on_ray(
            make_config(spec, "rate_limited", "compute_score", unreachable),
            batches["unreachable"],
        )
    finally:
        silent.close()
    return {"registered": sorted(REWARD_MANAGER), "runs": runs}
