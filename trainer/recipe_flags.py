"""The command-line flags of the guides the recipes come from, as ``grpo-train`` accepts them.

reasoning-format's script takes dashed flags (``--model-size 1.5B --use-lora --max-steps
1000``), q-code's ``rl_trainer.py`` underscored ones (``--model … --use_vllm
--simple_eval_problems 15``). Each flag is the flat config key of the same name
(:data:`trainer.flat_config.FLAT_KEYS`), so a flag and a YAML key mean the same thing, and
it reads what that key holds (the config field it sets, or its converter's input).
They are kept so that each guide's command lines run as written, and listed by
``grpo-train --help-recipe-flags`` rather than the main ``--help``.
"""

from __future__ import annotations

import argparse
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_type_hints

from pydantic import BaseModel

from trainer.config import TrainerConfig
from trainer.config_flags import value_type
from trainer.flat_config import FLAT_KEYS, MODEL_SIZES, FlatKey


def _taken(flat_key: FlatKey) -> Any:
    """What a flat key's value is: its converter's parameter type, else its target's."""
    hints = get_type_hints(flat_key.convert)
    hints.pop("return", None)
    taken = next(iter(hints.values()), Any)
    if taken is not Any:  # a converter's own input (the identity takes anything)
        return taken
    section, name = flat_key.target.split(".")
    model = TrainerConfig.model_fields[section].annotation
    assert isinstance(model, type) and issubclass(model, BaseModel)
    return model.model_fields[name].annotation


@dataclass(frozen=True)
class RecipeFlag:
    """One of a guide's flags: the flat key of the same name, read as that key's value (a
    switch for a yes/no one)."""

    flag: str
    recipe: str
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

    @property
    def help(self) -> str:
        flat_key = FLAT_KEYS[self.key]
        return flat_key.target + (f" ({flat_key.note})" if flat_key.note else "")

    @property
    def type(self) -> Callable[[str], Any] | None:
        """How the flag reads its value; None: a switch (no value)."""
        taken = _taken(FLAT_KEYS[self.key])
        return None if taken is bool else value_type(taken)[0]


# Each guide's flags, as its command lines spell them.
GUIDE_FLAGS = {
    "reasoning-format": "--model-size --use-lora --disable-wandb --batch-size --learning-rate "
    "--gradient-accumulation-steps",
    "q-code": "--use_vllm --learning_rate --per_device_train_batch_size "
    "--gradient_accumulation_steps --simple_eval_problems --repeat_eval_problems --eval_steps "
    "--generation_temp --use_reasoning_format --base_reward_weight --perfect_reward_weight "
    "--max_tests_per_problem --max_model_len --use_wandb --wandb_name --wandb_project",
}
CHOICES = {"--model-size": tuple(MODEL_SIZES)}

RECIPE_FLAGS: tuple[RecipeFlag, ...] = tuple(
    RecipeFlag(flag, recipe, CHOICES.get(flag))
    for recipe, flags in GUIDE_FLAGS.items()
    for flag in flags.split()
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
        read = flag.type
        if read is None:
            group.add_argument(
                flag.flag, dest=flag.dest, action="store_const", const=True, help=text
            )
        else:
            group.add_argument(
                flag.flag,
                dest=flag.dest,
                type=read,
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
