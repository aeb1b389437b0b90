"""The seed documents' command-line flags, as ``grpo-train`` accepts them.

Seed 002's script takes dashed flags (``--model-size 1.5B --use-lora --max-steps 1000``),
seed 003's ``rl_trainer.py`` underscored ones (``--model … --use_vllm
--simple_eval_problems 15``). Each flag is the flat seed key of the same name
(:data:`trainer.seed_format.SEED_KEYS`), so a flag and a YAML key mean the same thing.
Flags that are also ours (``--model_path``, ``--output_dir``, ``--max_samples``,
``--max-steps``, ``--model``) are aliases in :mod:`trainer.cli`.
"""

from __future__ import annotations

import argparse
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from trainer.seed_format import MODEL_SIZES


@dataclass(frozen=True)
class SeedFlag:
    flag: str
    seed: str
    help: str
    type: Callable[[str], Any] | None = None  # None: a switch (no value)
    choices: tuple[str, ...] | None = None

    @property
    def dest(self) -> str:
        # The spelling itself: --learning-rate (002) and --learning_rate (003) stay apart.
        return "seed" + self.flag

    @property
    def key(self) -> str:
        """The flat seed key this flag sets."""
        return self.flag.lstrip("-").replace("-", "_")


SEED_FLAGS: tuple[SeedFlag, ...] = (
    SeedFlag("--model-size", "002", "model size; its Qwen hub id", str, tuple(MODEL_SIZES)),
    SeedFlag("--use-lora", "002", "train a LoRA adapter (lora.enabled)"),
    SeedFlag("--disable-wandb", "002", "no wandb logging (training.report_to: [])"),
    SeedFlag("--batch-size", "002", "training.per_device_train_batch_size", int),
    SeedFlag("--learning-rate", "002", "training.learning_rate", float),
    SeedFlag("--gradient-accumulation-steps", "002", "training.gradient_accumulation_steps", int),
    SeedFlag("--use_vllm", "003", "generate with vLLM (generation.use_vllm)"),
    SeedFlag("--learning_rate", "003", "training.learning_rate", float),
    SeedFlag("--per_device_train_batch_size", "003", "training.per_device_train_batch_size", int),
    SeedFlag("--gradient_accumulation_steps", "003", "training.gradient_accumulation_steps", int),
    SeedFlag("--simple_eval_problems", "003", "eval.num_problems", int),
    SeedFlag("--repeat_eval_problems", "003", "eval.num_samples (k of pass@k)", int),
    SeedFlag("--eval_steps", "003", "eval.every_steps", int),
    SeedFlag("--generation_temp", "003", "generation.temperature", float),
    SeedFlag(
        "--use_reasoning_format", "003", "<reasoning>/<answer> format (data.reasoning_format)"
    ),
    SeedFlag("--base_reward_weight", "003", "reward.base_weight", float),
    SeedFlag("--perfect_reward_weight", "003", "reward.perfect_weight", float),
    SeedFlag("--max_tests_per_problem", "003", "reward.max_tests", int),
    SeedFlag("--max_model_len", "003", "generation.vllm_max_model_length", int),
    SeedFlag("--use_wandb", "003", "log to wandb (training.report_to: [wandb])"),
    SeedFlag("--wandb_name", "003", "training.run_name", str),
    SeedFlag("--wandb_project", "003", "training.wandb_project", str),
)


def add_seed_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("seed flags (seed 002's dashed, seed 003's underscored)")
    for flag in SEED_FLAGS:
        text = f"seed {flag.seed}: {flag.help}"
        if flag.type is None:
            group.add_argument(
                flag.flag, dest=flag.dest, action="store_const", const=True, help=text
            )
        else:
            group.add_argument(
                flag.flag,
                dest=flag.dest,
                type=flag.type,
                choices=flag.choices,
                metavar=flag.key.upper(),
                help=text,
            )


def given_seed_flags(args: argparse.Namespace) -> list[tuple[SeedFlag, Any]]:
    """The seed flags on the command line, with their values."""
    return [(f, getattr(args, f.dest)) for f in SEED_FLAGS if getattr(args, f.dest) is not None]


def hub_offline_reason() -> str | None:
    """Why the Hugging Face hub cannot be reached from here; None when it can."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        return "HF_HUB_OFFLINE is set"
    try:
        socket.create_connection(("huggingface.co", 443), timeout=3).close()
    except OSError as exc:
        return f"huggingface.co is unreachable ({exc})"
    return None
