"""Read the seed projects' flat config keys (``lora_r``, ``kl_coef``, …) as our sections.

The seed recipes keep their settings in one flat YAML (or as script flags); ours groups
them in sections. :func:`map_seed_keys` turns every known flat key into its section key,
warning once per key with the new name, so an old config trains unchanged and says how to
write it today. ``grpo-train convert-config`` writes the converted file. A key that is
neither a section nor a known seed key stays an error.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class SeedFormatWarning(UserWarning):
    """A seed-format key was read as one of ours; the message names the new key."""


class ConfigKeyError(ValueError):
    """A top-level key that is neither a section nor a seed-format key, or a key given twice."""


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class SeedKey:
    """Where one flat key of a seed config goes, and how its value converts."""

    target: str  # "section.field"
    seeds: str  # which seed documents use the key (for the mapping table)
    convert: Callable[[Any], Any] = _same
    note: str = ""


def _precision(fp16: Any) -> str:
    return "fp16" if fp16 else "auto"


def _wandb(use: Any) -> list[str]:
    return ["wandb"] if use else []


def _reasoning(use: Any) -> str:
    return "reasoning" if use else "none"


def _tinyv_mode(setup: Any) -> str:
    return "verifier_only" if setup == "tinyv_only" else str(setup)


def _no_wandb(disable: Any) -> list[str]:
    return [] if disable else ["wandb"]


# Seed 002's --model-size choices, as the hub ids of the models of those sizes its guide
# trains (the 4B default is Qwen3's; Qwen2.5 has no 4B).
MODEL_SIZES: dict[str, str] = {
    "0.5B": "Qwen/Qwen2.5-0.5B-Instruct",
    "1.5B": "Qwen/Qwen2.5-1.5B-Instruct",
    "3B": "Qwen/Qwen2.5-3B-Instruct",
    "4B": "Qwen/Qwen3-4B",
}


def _model_size(size: Any) -> str:
    if str(size) not in MODEL_SIZES:
        raise ConfigKeyError(
            f"model size {size!r} is not one of seed 002's ({', '.join(MODEL_SIZES)}); "
            "give the model itself with --model_path"
        )
    return MODEL_SIZES[str(size)]


SEED_KEYS: dict[str, SeedKey] = {
    "model_path": SeedKey("model.path", "001"),
    "lora_r": SeedKey("lora.r", "001"),
    "lora_alpha": SeedKey("lora.alpha", "001"),
    "lora_dropout": SeedKey("lora.dropout", "001"),
    "model_size": SeedKey("model.path", "002", _model_size, "a size → its Qwen hub id"),
    "use_lora": SeedKey("lora.enabled", "002"),
    "num_return_sequences": SeedKey("grpo.num_generations", "001"),
    "num_generations": SeedKey("grpo.num_generations", "002"),
    "kl_coef": SeedKey("grpo.beta", "001, 004"),
    "cliprange": SeedKey("grpo.epsilon", "002"),
    "num_epochs": SeedKey("training.num_train_epochs", "001"),
    "total_epochs": SeedKey("training.num_train_epochs", "004"),
    "max_steps": SeedKey("training.max_steps", "002"),
    "per_device_train_batch_size": SeedKey("training.per_device_train_batch_size", "001, 003"),
    "batch_size": SeedKey("training.per_device_train_batch_size", "002"),
    "gradient_accumulation_steps": SeedKey("training.gradient_accumulation_steps", "001–003"),
    "learning_rate": SeedKey("training.learning_rate", "001–003"),
    "logging_steps": SeedKey("training.logging_steps", "001"),
    "save_freq": SeedKey("training.save_steps", "004"),
    "gradient_checkpointing": SeedKey("training.gradient_checkpointing", "001"),
    "fp16": SeedKey("training.precision", "001", _precision, "true → 'fp16', false → 'auto'"),
    "output_dir": SeedKey("training.output_dir", "001, 003"),
    "use_wandb": SeedKey("training.report_to", "003", _wandb, "true → [wandb]"),
    "disable_wandb": SeedKey("training.report_to", "002", _no_wandb, "true → []"),
    "wandb_name": SeedKey("training.run_name", "003"),
    "experiment_name": SeedKey("training.run_name", "004"),
    "wandb_project": SeedKey("training.wandb_project", "003"),
    "project_name": SeedKey("training.wandb_project", "004"),
    "max_new_tokens": SeedKey("generation.max_completion_length", "001"),
    "max_response_length": SeedKey("generation.max_completion_length", "004"),
    "temperature": SeedKey("generation.temperature", "001, 002"),
    "generation_temp": SeedKey("generation.temperature", "003"),
    "top_p": SeedKey("generation.top_p", "001"),
    "use_vllm": SeedKey("generation.use_vllm", "003"),
    "max_model_len": SeedKey("generation.vllm_max_model_length", "003"),
    "use_reasoning_format": SeedKey(
        "data.reasoning_format", "003", _reasoning, "true → 'reasoning', false → 'none'"
    ),
    "max_samples": SeedKey("data.max_samples", "001"),
    "train_files": SeedKey("data.path", "004"),
    "reward_correct": SeedKey("reward.correct", "001"),
    "reward_wrong": SeedKey("reward.wrong", "001"),
    "reward_no_answer": SeedKey("reward.no_answer", "001"),
    "base_reward_weight": SeedKey("reward.base_weight", "003"),
    "perfect_reward_weight": SeedKey("reward.perfect_weight", "003"),
    "max_tests_per_problem": SeedKey("reward.max_tests", "003"),
    "tinyv_setup": SeedKey("reward.mode", "004", _tinyv_mode, "'tinyv_only' → 'verifier_only'"),
    "tinyv_weight": SeedKey("reward.verifier_weight", "004"),
    "eval_steps": SeedKey("eval.every_steps", "003"),
    "test_freq": SeedKey("eval.every_steps", "004"),
    "simple_eval_problems": SeedKey("eval.num_problems", "003"),
    "repeat_eval_problems": SeedKey("eval.num_samples", "003"),
    "val_files": SeedKey("eval.path", "004"),
}

# Seed keys that are not the trainer's to set: skipped with a warning saying where they go.
LAUNCHER_KEYS: dict[str, str] = {
    "num_processes": "accelerate launch --num_processes N (or the accelerate config file)",
}

# Seed keys refused in a config file, with what to use instead.
REFUSED_KEYS: dict[str, str] = {
    "hf_token": "a token does not belong in a config file (config.yaml records the run); "
    "set HF_TOKEN in the environment or pass --hf-token",
}


def _normalise(key: str) -> str:
    # The seeds' script flags use dashes (--max-steps); their YAML keys use underscores.
    return key.lstrip("-").replace("-", "_")


def flat_keys(raw: dict[str, Any], sections: frozenset[str]) -> list[str]:
    """The seed-format keys of ``raw`` (normalised: ``model-size`` → ``model_size``)."""
    return [
        "model_path" if key == "model" else _normalise(str(key))
        for key, value in raw.items()
        if not (key in sections and (key != "model" or isinstance(value, dict) or value is None))
    ]


def map_seed_keys(
    raw: dict[str, Any], sections: frozenset[str], where: str = "config", announce: bool = True
) -> dict[str, Any]:
    """``raw`` with every flat seed key moved into its section; warns once per key.

    A string ``model:`` (seed 003's ``--model``) is the model path; launcher settings
    (``num_processes``) are skipped with a warning saying where they go. Unknown top-level
    keys, refused keys (``hf_token``) and a setting given both ways raise
    :class:`ConfigKeyError`. ``announce=False`` maps without the renaming warnings (a
    seed's command-line flags are accepted as they are).
    """
    result: dict[str, Any] = {}
    flat: list[tuple[str, Any]] = []
    for key, value in raw.items():
        if key in sections and (key != "model" or isinstance(value, dict) or value is None):
            result[key] = dict(value) if isinstance(value, dict) else value
        else:
            flat.append((key, value))
    for key, value in flat:
        name = "model_path" if key == "model" else _normalise(str(key))
        if name in LAUNCHER_KEYS:
            warnings.warn(
                f"{where}: seed-format key {key!r} is not a trainer setting and is skipped; "
                f"set it with {LAUNCHER_KEYS[name]}",
                SeedFormatWarning,
                stacklevel=3,
            )
            continue
        if name in REFUSED_KEYS:
            raise ConfigKeyError(f"{where}: key {key!r} is refused: {REFUSED_KEYS[name]}")
        seed_key = SEED_KEYS.get(name)
        if seed_key is None:
            raise ConfigKeyError(
                f"{where}: unknown key {key!r}: neither a section ({', '.join(sorted(sections))})"
                " nor a seed-format key (the mapping table is in docs/trainer.md)"
            )
        section, field = seed_key.target.split(".")
        values = result.setdefault(section, {})
        if not isinstance(values, dict):
            raise ConfigKeyError(f"{where}: section {section!r} must be a mapping")
        if field in values:
            raise ConfigKeyError(
                f"{where}: {seed_key.target!r} is given twice (seed-format key {key!r} too)"
            )
        values[field] = seed_key.convert(value)
        if not announce:
            continue
        warnings.warn(
            f"{where}: seed-format key {key!r} read as {seed_key.target!r}",
            SeedFormatWarning,
            stacklevel=3,
        )
    return result


def mapping_table() -> str:
    """The Markdown table of seed keys (docs/trainer.md)."""
    lines = ["| seed key | our key | seed | value |", "|---|---|---|---|"]
    for key, seed_key in SEED_KEYS.items():
        lines.append(f"| `{key}` | `{seed_key.target}` | {seed_key.seeds} | {seed_key.note} |")
    for key, where in LAUNCHER_KEYS.items():
        lines.append(f"| `{key}` | — (skipped, with a warning) | 003 | {where} |")
    for key, why in REFUSED_KEYS.items():
        lines.append(f"| `{key}` | — (refused) | 002 | {why} |")
    return "\n".join(lines) + "\n"
