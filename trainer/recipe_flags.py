"""The command-line flags of the guides the recipes come from, as ``grpo-train`` accepts them.

reasoning-format's script takes dashed flags (``--model-size 1.5B --use-lora --max-steps
1000``), q-code's ``rl_trainer.py`` underscored ones (``--model … --use_vllm
--simple_eval_problems 15``). Each flag is the flat config key of the same name
(:data:`trainer.flat_config.FLAT_KEYS`), so a flag and a YAML key mean the same thing.
They are kept so that each guide's command lines run as written, and listed by
``grpo-train --help-recipe-flags`` rather than the main ``--help``.
"""

from __future__ import annotations

import argparse
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from trainer.flat_config import MODEL_SIZES


@dataclass(frozen=True)
class RecipeFlag:
    flag: str
    recipe: str
    help: str
    type: Callable[[str], Any] | None = None  # None: a switch (no value)
    choices: tuple[str, ...] | None = None

    @property
    def dest(self) -> str:
        # The spelling itself: --learning-rate (reasoning-format) and --learning_rate (q-code)
        # stay apart.
        return "recipe_flag" + self.flag

    @property
    def key(self) -> str:
        """The flat config key this flag sets."""
        return self.flag.lstrip("-").replace("-", "_")


RECIPE_FLAGS: tuple[RecipeFlag, ...] = (
    RecipeFlag(
        "--model-size", "reasoning-format", "model size; its Qwen hub id", str, tuple(MODEL_SIZES)
    ),
    RecipeFlag("--use-lora", "reasoning-format", "train a LoRA adapter (lora.enabled)"),
    RecipeFlag("--disable-wandb", "reasoning-format", "no wandb logging (training.report_to: [])"),
    RecipeFlag("--batch-size", "reasoning-format", "prompts per device, each sampled n times", int),
    RecipeFlag("--learning-rate", "reasoning-format", "training.learning_rate", float),
    RecipeFlag(
        "--gradient-accumulation-steps",
        "reasoning-format",
        "training.gradient_accumulation_steps",
        int,
    ),
    RecipeFlag("--use_vllm", "q-code", "generate with vLLM (generation.use_vllm)"),
    RecipeFlag("--learning_rate", "q-code", "training.learning_rate", float),
    RecipeFlag(
        "--per_device_train_batch_size", "q-code", "training.per_device_train_batch_size", int
    ),
    RecipeFlag(
        "--gradient_accumulation_steps", "q-code", "training.gradient_accumulation_steps", int
    ),
    RecipeFlag("--simple_eval_problems", "q-code", "eval.num_problems", int),
    RecipeFlag("--repeat_eval_problems", "q-code", "eval.num_samples (k of pass@k)", int),
    RecipeFlag("--eval_steps", "q-code", "eval.every_steps", int),
    RecipeFlag("--generation_temp", "q-code", "generation.temperature", float),
    RecipeFlag(
        "--use_reasoning_format", "q-code", "<reasoning>/<answer> format (data.reasoning_format)"
    ),
    RecipeFlag("--base_reward_weight", "q-code", "reward.base_weight", float),
    RecipeFlag("--perfect_reward_weight", "q-code", "reward.perfect_weight", float),
    RecipeFlag("--max_tests_per_problem", "q-code", "reward.max_tests", int),
    RecipeFlag("--max_model_len", "q-code", "generation.vllm_max_model_length", int),
    RecipeFlag("--use_wandb", "q-code", "log to wandb (training.report_to: [wandb])"),
    RecipeFlag("--wandb_name", "q-code", "training.run_name", str),
    RecipeFlag("--wandb_project", "q-code", "training.wandb_project", str),
)


RECIPE_FLAGS_TITLE = "the recipes' own flags (reasoning-format's dashed, q-code's underscored)"


def add_recipe_flags(
    parser: argparse.ArgumentParser, shown: bool = False, listed: frozenset[str] = frozenset()
) -> None:
    """Add every recipe flag, in ``--help`` with ``shown``, else only those in ``listed``."""
    group = parser.add_argument_group(RECIPE_FLAGS_TITLE) if shown else parser
    for flag in RECIPE_FLAGS:
        text = f"{flag.recipe}: {flag.help}" if shown else argparse.SUPPRESS
        if flag.flag in listed:
            text = flag.help
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


def given_recipe_flags(args: argparse.Namespace) -> list[tuple[RecipeFlag, Any]]:
    """The recipe flags on the command line, with their values."""
    return [(f, getattr(args, f.dest)) for f in RECIPE_FLAGS if getattr(args, f.dest) is not None]


def hub_offline_reason() -> str | None:
    """Why the Hugging Face hub cannot be reached from here; None when it can."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        return "HF_HUB_OFFLINE is set"
    try:
        socket.create_connection(("huggingface.co", 443), timeout=3).close()
    except OSError as exc:
        return f"huggingface.co is unreachable ({exc})"
    return None
