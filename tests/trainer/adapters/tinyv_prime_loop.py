"""TinyV's verl fork scoring a batch, as its prime reward manager does; run under Python 3.10.

Re-implemented from the fork's published code (``trainer/main_ppo.py``'s custom reward
loading, ``verl/workers/reward_manager/prime.py``): the file named by
``custom_reward_function.path`` is run as module ``custom_module`` (not added to
``sys.modules``); each row's call is ``partial(fn, data_source, solution, gt, extra_info,
tinyv_setup, tinyv_weight)`` in a ``ProcessPoolExecutor`` with the default start method (fork
on Linux), wrapped in its own ``asyncio.gather``; a failed or timed-out call is printed and
scores 0.0; a result is read as ``float(result[0])`` for a number, else
``float(result[0][0])``.

Stubbed, because they need the rollout's GPU tensors: the responses arrive already decoded
(the fork decodes the rollout's token ids), and the scores are returned as a list instead
of being written into the reward tensor.

Input on stdin: ``{"path", "name", "rows": [[data_source, solution, gt, extra_info]],
"tinyv_setup", "tinyv_weight"}``. Output on stdout, last line: ``{"scores", "start_method"}``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import multiprocessing
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

NUM_PROCESSES = 64  # the fork's pool size
TIMEOUT_S = 300.0  # the fork's per-row timeout


def get_custom_reward_fn(path: str, name: str) -> Callable[..., Any]:
    spec = importlib.util.spec_from_file_location("custom_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    function: Callable[..., Any] = getattr(module, name)
    return function


async def single_compute_score(
    evaluation_func: Callable[..., Any],
    completion: str,
    reference: Any,
    task: str,
    task_extra_info: Any,
    executor: ProcessPoolExecutor,
    tinyv_setup: str,
    tinyv_weight: float,
) -> list[Any] | None:
    loop = asyncio.get_running_loop()
    try:
        call = partial(
            evaluation_func, task, completion, reference, task_extra_info, tinyv_setup, tinyv_weight
        )
        tasks = [asyncio.wait_for(loop.run_in_executor(executor, call), timeout=TIMEOUT_S)]
        return list(await asyncio.gather(*tasks))
    except asyncio.TimeoutError:  # noqa: UP041  # not the builtin one before Python 3.11
        print(f"Timeout occurred for completion: {completion}")
        return None
    except Exception as error:
        print(f"Error processing completion: {completion[:10]}, Error: {error}")
        return None


async def parallel_compute_score_async(
    evaluation_func: Callable[..., Any],
    completions: list[str],
    references: list[Any],
    tasks: list[str],
    extra_info: list[Any],
    tinyv_setup: str,
    tinyv_weight: float,
) -> list[float]:
    with ProcessPoolExecutor(max_workers=NUM_PROCESSES) as executor:
        results = await asyncio.gather(
            *(
                single_compute_score(
                    evaluation_func, c, r, t, e, executor, tinyv_setup, tinyv_weight
                )
                for c, r, t, e in zip(completions, references, tasks, extra_info, strict=True)
            )
        )
    scores = []
    for result in results:
        if result is None:
            scores.append(0.0)
        elif isinstance(result[0], (int, float, bool)):
            scores.append(float(result[0]))
        else:
            scores.append(float(result[0][0]))
    return scores


def main() -> None:
    spec = json.load(sys.stdin)
    function = get_custom_reward_fn(spec["path"], spec["name"])
    rows = spec["rows"]
    scores = asyncio.run(
        parallel_compute_score_async(
            function,
            [row[1] for row in rows],
            [row[2] for row in rows],
            [row[0] for row in rows],
            [row[3] for row in rows],
            spec["tinyv_setup"],
            spec["tinyv_weight"],
        )
    )
    print(json.dumps({"scores": scores, "start_method": multiprocessing.get_start_method()}))


if __name__ == "__main__":
    main()
