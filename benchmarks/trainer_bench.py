"""Trainer benchmark: GRPO step time with the remote reward vs the same reward in-process.

Both arms run the same TRL GRPO loop (tiny random Llama, LoRA, beta > 0, same seed, so the
same completions) and the same ``RemoteReward`` code; only the transport differs:
* remote: ``POST /score`` to the real service on loopback (what ``grpo-train`` does);
* in-process: the service's own ``Scorer`` (same checker, same cache size) called directly
  in the trainer process, as a TRL reward function that imports the checker would.

Arms alternate (remote, in-process, remote, …) so a busy shared machine affects both alike.
The first step of each run and the first round are warm-up and are left out; medians
over the remaining steps are compared. Two ratios are reported: whole-step medians
(remote / in-process), which a shared machine makes noisy, and the overhead caused by the
transport alone, ``1 + (remote reward time - in-process reward time) / in-process step``
(target <= 1.05), and the share of step time spent in the reward. The tiny model makes
steps short, so both are upper bounds for real models.

``--shape qwen2.5-1.5b`` (the default when CUDA is available) uses a random model with the
transformer body of Qwen2.5-1.5B (28 layers, hidden 1536, MLP 8960, 12 query / 2 KV heads;
the locally trained small vocabulary), so step times are those of a real model on a GPU.

Writes ``benchmarks/results/trainer_bench[-<shape>].json`` and prints a Markdown table.
Usage: ``python benchmarks/trainer_bench.py [--steps 10] [--rounds 3] [--shape tiny]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.service import running_service
from services.api.results import score_batch
from services.contract.client.http import Item, Result
from services.contract.protocol import RewardOptions
from services.llm_stage import LLMStage
from services.mathcheck.checker import MathChecker
from services.mathcheck.pool import SymbolicPool
from services.metrics import Metrics
from services.scoring import Scorer
from services.settings import Settings
from trainer.config import TrainerConfig
from trainer.remote_reward import RemoteReward
from trainer.tiny_model import build_tiny_model
from trainer.training import METRICS_FILE, build_trainer, close_rewards

RESULTS = Path(__file__).resolve().parent / "results"
# Model shapes: the tiny CPU model, and Qwen2.5-1.5B's transformer body for GPU runs.
SHAPES: dict[str, dict[str, int]] = {
    "tiny": {"hidden": 32, "layers": 2},
    "qwen2.5-1.5b": {
        "hidden": 1536,
        "layers": 28,
        "intermediate": 8960,
        "heads": 12,
        "kv_heads": 2,
    },
}
DATA = Path(__file__).resolve().parents[1] / "trainer" / "data" / "demo_math.jsonl"


class InProcessScorer:
    """The service's scorer without the HTTP hop; built lazily on TRL's event loop."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._scorer: Scorer | None = None
        self._checker: MathChecker | None = None

    async def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[Result]:
        if self._scorer is None:
            s = self._settings
            pool = SymbolicPool(s.math_workers, s.math_timeout_s, s.math_memory_mb)
            await pool.warm()
            self._checker = MathChecker(pool, s.cache_size)
            stage = LLMStage(None, Metrics())
            self._scorer = Scorer(s, self._checker, Metrics(), None, stage)
        policy = RewardOptions(**options).to_policy(self._settings.defaults)
        response = await score_batch(self._scorer, list(items), policy)
        return [result.model_dump(mode="json") for result in response.results]

    async def aclose(self) -> None:
        """Kept open across runs, like the long-lived service (its cache included)."""

    def close(self) -> None:
        if self._checker is not None:
            self._checker.close()


def bench_config(model: Path, out: Path, url: str, steps: int, seed: int) -> TrainerConfig:
    return TrainerConfig.model_validate(
        {
            "model": {"path": str(model)},
            "lora": {"r": 4, "alpha": 8, "target_modules": "all-linear"},
            "grpo": {"num_generations": 8, "beta": 0.05},
            "training": {
                "output_dir": str(out),
                "max_steps": steps,
                "per_device_train_batch_size": 16,
                "gradient_accumulation_steps": 1,
                "learning_rate": 1e-4,
                "save_steps": 10_000,
                "seed": seed,
            },
            "generation": {"max_completion_length": 32},
            "data": {"path": str(DATA)},
            "reward": {"debug_log_every": 0},
            "service": {"url": url},
        }
    )


def run_arm(config: TrainerConfig, in_process: InProcessScorer | None) -> dict[str, list[float]]:
    trainer = build_trainer(config)
    if in_process is not None:
        remote = trainer.reward_funcs[0]
        assert isinstance(remote, RemoteReward)
        remote.client = in_process
    started = time.perf_counter()
    trainer.train()
    wall = time.perf_counter() - started
    close_rewards(trainer)
    path = Path(config.training.output_dir) / METRICS_FILE
    steps = [m for m in map(json.loads, path.read_text().splitlines()) if "step_time" in m]
    measured = steps[1:]  # step 1 is warm-up
    return {
        "step_s": [m["step_time"] for m in measured],
        "reward_s": [m["verifier/seconds"] for m in measured],
        "wall_s": [wall],
        "rewards": [m["reward"] for m in steps],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--shape",
        choices=["auto", *SHAPES],
        default="auto",
        help="model shape; auto = qwen2.5-1.5b on a GPU, tiny otherwise",
    )
    args = parser.parse_args()
    shape = args.shape
    if shape == "auto":
        import torch

        shape = "qwen2.5-1.5b" if torch.cuda.is_available() else "tiny"
    logging.basicConfig(level=logging.WARNING)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

    work = Path(tempfile.mkdtemp(prefix="trainer-bench-"))
    model = build_tiny_model(work / f"{shape}-model", **SHAPES[shape])
    settings = Settings()
    in_process = InProcessScorer(settings)
    runs: dict[str, list[dict[str, list[float]]]] = {"remote": [], "in_process": []}
    with running_service() as url:
        for round_ in range(args.rounds):
            for arm in ("remote", "in_process"):
                out = work / f"{arm}-{round_}"
                config = bench_config(model, out, url, args.steps, args.seed)
                runs[arm].append(run_arm(config, in_process if arm == "in_process" else None))
    in_process.close()

    def summary(arm: str) -> dict[str, float]:
        # Round 0 warms both arms up (caches, allocator, the service); medians resist the
        # bursts of a shared machine.
        kept = runs[arm][1:] if len(runs[arm]) > 1 else runs[arm]
        step_s = statistics.median(s for r in kept for s in r["step_s"])
        reward_s = statistics.median(s for r in kept for s in r["reward_s"])
        return {
            "step_s": step_s,
            "reward_s": reward_s,
            "reward_share": reward_s / step_s,
            "steps_measured": float(sum(len(r["step_s"]) for r in kept)),
        }

    remote, local = summary("remote"), summary("in_process")
    ratio = remote["step_s"] / local["step_s"]
    # The arms differ only in the reward transport, so the overhead it causes is the extra
    # reward time over the in-process step: robust where whole-step times are noisy.
    reward_ratio = 1 + (remote["reward_s"] - local["reward_s"]) / local["step_s"]
    same_rewards = all(
        r["rewards"] == i["rewards"]
        for r, i in zip(runs["remote"], runs["in_process"], strict=True)
    )
    report = {
        "benchmark": "GRPO step time: remote reward (HTTP) vs in-process reward",
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "setup": {
            "model": f"random Llama, shape {shape} {SHAPES[shape]}, LoRA r4, beta 0.05",
            "completions_per_step": 16,
            "num_generations": 8,
            "max_completion_length": 32,
            "steps_per_run": args.steps,
            "rounds": args.rounds,
            "seed": args.seed,
            "warmup_steps_dropped": 1,
            "warmup_rounds_dropped": 1 if args.rounds > 1 else 0,
            "statistic": "median over measured steps",
        },
        "remote": remote,
        "in_process": local,
        "step_time_ratio": ratio,
        "reward_overhead_ratio": reward_ratio,
        "load_average": os.getloadavg(),
        "target_ratio": 1.05,
        "identical_rewards": same_rewards,
        "runs": runs,
    }
    RESULTS.mkdir(exist_ok=True)
    name = "trainer_bench.json" if shape == "tiny" else f"trainer_bench-{shape}.json"
    (RESULTS / name).write_text(json.dumps(report, indent=2) + "\n")
    print("| reward path | median step time (s) | median reward time (s) | reward share of step |")
    print("|---|---|---|---|")
    for name, row in (
        ("remote `/score` (HTTP, loopback)", remote),
        ("in-process (same checker)", local),
    ):
        print(
            f"| {name} | {row['step_s']:.3f} | {row['reward_s']:.4f} | {row['reward_share']:.1%} |"
        )
    print(
        f"\nstep-time ratio remote / in-process (whole steps): **{ratio:.3f}**; "
        f"overhead from the reward transport: **{reward_ratio:.3f}** (target <= 1.05); "
        f"identical rewards in both arms: {same_rewards}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
