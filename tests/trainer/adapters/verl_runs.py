"""verl 0.9's reward code through the adapter, in one process and on one local Ray cluster:
the runs of verl_reward_loop.py (loader, managers, reward loop) and then those of
verl_managers_loop.py (every manager under faults); run in the verl venv as
``python -m tests.trainer.adapters.verl_runs`` from the repository root.

Input on stdin: ``{"service_url", "tokenizer", "adapter", "rows": [[data_source, solution,
ground_truth, extra_info]]}``. Output on stdout, last line: ``{"loop": ..., "managers":
...}``, each part as its module's ``results`` returns it.
"""

from __future__ import annotations

import json
import logging
import sys

import ray

from tests.trainer.adapters import verl_managers_loop, verl_reward_loop


def main() -> None:
    spec = json.load(sys.stdin)
    # A cluster of its own, even where another one runs on this machine; the two parts run
    # one after the other, so the loop's count of /score requests is its own.
    ray.init(address="local", num_cpus=4, include_dashboard=False, logging_level=logging.ERROR)
    try:
        out = {
            "loop": verl_reward_loop.results(spec),
            "managers": verl_managers_loop.results(spec),
        }
    finally:
        ray.shutdown()
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
