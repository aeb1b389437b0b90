"""Read flat config keys (``lora_r``, ``kl_coef``, …) as our sections.

The guides the recipes come from keep their settings in one flat YAML (or as script
flags); ours groups them in sections. :func:`map_flat_keys` turns every known flat key
into its section key, warning once per key with the new name, so such a config trains
unchanged and says how to write it in sections. ``grpo-train convert-config`` writes
the converted file. A key that is neither a section nor a known flat key stays an error.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class FlatKeyWarning(UserWarning):
    """A flat config key was read as one of ours; the message names the new key."""


class ConfigKeyError(ValueError):
    """A top-level key that is neither a section nor a known flat key, or a key given twice."""


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class FlatKey:
    """Where one flat config key goes, and how its value converts (a converter's parameter
    says what the key takes: a recipe's flag reads that, else what the target holds)."""

    target: str  # "section.field"
    recipes: str  # the recipes whose guides use the key (for the mapping table)
    convert: Callable[[Any], Any] = _same
    note: str = ""


def _precision(fp16: bool) -> str:
    return "fp16" if fp16 else "auto"


def _wandb(use: bool) -> list[str]:
    return ["wandb"] if use else []


def _reasoning(use: bool) -> str:
    return "reasoning" if use else "none"


def _tinyv_mode(setup: str) -> str:
    return "verifier_only" if setup == "tinyv_only" else str(setup)


def _no_wandb(disable: bool) -> list[str]:
    return [] if disable else ["wandb"]


# reasoning-format's --model-size choices, as the hub ids of the models of those sizes its guide
# trains (the 4B default is Qwen3's; Qwen2.5 has no 4B).
MODEL_SIZES: dict[str, str] = {
    "0.5B": "Qwen/Qwen2.5-0.5B-Instruct",
    "1.5B": "Qwen/Qwen2.5-1.5B-Instruct",
    "3B": "Qwen/Qwen2.5-3B-Instruct",
    "4B": "Qwen/Qwen3-4B",
}


def _model_size(size: str) -> str:
    if str(size) not in MODEL_SIZES:
        raise ConfigKeyError(
            f"model size {size!r} is not one of recipe reasoning-format's "
            f"({', '.join(MODEL_SIZES)}); give the model itself with --model_path"
        )
    return MODEL_SIZES[str(size)]


FLAT_KEYS: dict[str, FlatKey] = {
    "model_path": FlatKey("model.path", "math-lora"),
    "lora_r": FlatKey("lora.r", "math-lora"),
    "lora_alpha": FlatKey("lora.alpha", "math-lora"),
    "lora_dropout": FlatKey("lora.dropout", "math-lora"),
    "model_size": FlatKey(
        "model.path", "reasoning-format", _model_size, "a size → its Qwen hub id"
    ),
    "use_lora": FlatKey("lora.enabled", "reasoning-format"),
    "num_return_sequences": FlatKey("grpo.num_generations", "math-lora"),
    "num_generations": FlatKey("grpo.num_generations", "reasoning-format"),
    "kl_coef": FlatKey("grpo.beta", "math-lora, tinyv-rubric"),
    "cliprange": FlatKey("grpo.epsilon", "reasoning-format"),
    "num_epochs": FlatKey("training.num_train_epochs", "math-lora"),
    "total_epochs": FlatKey("training.num_train_epochs", "tinyv-rubric"),
    "max_steps": FlatKey("training.max_steps", "reasoning-format"),
    "per_device_train_batch_size": FlatKey(
        "training.per_device_train_batch_size", "math-lora, q-code"
    ),
    "batch_size": FlatKey("training.per_device_train_batch_size", "reasoning-format"),
    "gradient_accumulation_steps": FlatKey(
        "training.gradient_accumulation_steps", "math-lora, reasoning-format, q-code"
    ),
    "learning_rate": FlatKey("training.learning_rate", "math-lora, reasoning-format, q-code"),
    "logging_steps": FlatKey("training.logging_steps", "math-lora"),
    "save_freq": FlatKey("training.save_steps", "tinyv-rubric"),
    "gradient_checkpointing": FlatKey("training.gradient_checkpointing", "math-lora"),
    "fp16": FlatKey("training.precision", "math-lora", _precision, "true → 'fp16', false → 'auto'"),
    "output_dir": FlatKey("training.output_dir", "math-lora, q-code"),
    "use_wandb": FlatKey("training.report_to", "q-code", _wandb, "true → [wandb]"),
    "disable_wandb": FlatKey("training.report_to", "reasoning-format", _no_wandb, "true → []"),
    "wandb_name": FlatKey("training.run_name", "q-code"),
    "experiment_name": FlatKey("training.run_name", "tinyv-rubric"),
    "wandb_project": FlatKey("training.wandb_project", "q-code"),
    "project_name": FlatKey("training.wandb_project", "tinyv-rubric"),
    "max_new_tokens": FlatKey("generation.max_completion_length", "math-lora"),
    "max_response_length": FlatKey("generation.max_completion_length", "tinyv-rubric"),
    "temperature": FlatKey("generation.temperature", "math-lora, reasoning-format"),
    "generation_temp": FlatKey("generation.temperature", "q-code"),
    "top_p": FlatKey("generation.top_p", "math-lora"),
    "use_vllm": FlatKey("generation.use_vllm", "q-code"),
    "max_model_len": FlatKey("generation.vllm_max_model_length", "q-code"),
    "use_reasoning_format": FlatKey(
        "data.reasoning_format", "q-code", _reasoning, "true → 'reasoning', false → 'none'"
    ),
    "max_samples": FlatKey("data.max_samples", "math-lora"),
    "train_files": FlatKey("data.path", "tinyv-rubric"),
    "reward_correct": FlatKey("reward.correct", "math-lora"),
    "reward_wrong": FlatKey("reward.wrong", "math-lora"),
    "reward_no_answer": FlatKey("reward.no_answer", "math-lora"),
    "base_reward_weight": FlatKey("reward.base_weight", "q-code"),
    "perfect_reward_weight": FlatKey("reward.perfect_weight", "q-code"),
    "max_tests_per_problem": FlatKey("reward.max_tests", "q-code"),
    "tinyv_setup": FlatKey(
        "reward.mode", "tinyv-rubric", _tinyv_mode, "'tinyv_only' → 'verifier_only'"
    ),
    "tinyv_weight": FlatKey("reward.verifier_weight", "tinyv-rubric"),
    "eval_steps": FlatKey("eval.every_steps", "q-code"),
    "test_freq": FlatKey("eval.every_steps", "tinyv-rubric"),
    "simple_eval_problems": FlatKey("eval.num_problems", "q-code"),
    "repeat_eval_problems": FlatKey("eval.num_samples", "q-code"),
    "val_files": FlatKey("eval.path", "tinyv-rubric"),
}

# Flat keys that are not the trainer's to set: skipped with a warning saying where they go.
LAUNCHER_KEYS: dict[str, str] = {
    "num_processes": "accelerate launch --num_processes N (or the accelerate config file)",
}

# Flat keys refused in a config file, with what to use instead.
REFUSED_KEYS: dict[str, str] = {
    "hf_token": "a token does not belong in a config file (config.yaml records the run); "
    "set HF_TOKEN in the environment or pass --hf-token",
}


def _normalise(key: str) -> str:
    # Script flags use dashes (--max-steps); YAML keys use underscores.
    return key.lstrip("-").replace("-", "_")


def flat_keys(raw: dict[str, Any], sections: frozenset[str]) -> list[str]:
    """The flat keys of ``raw`` (normalised: ``model-size`` → ``model_size``)."""
    return [
        "model_path" if key == "model" else _normalise(str(key))
        for key, value in raw.items()
        if not (key in sections and (key != "model" or isinstance(value, dict) or value is None))
    ]


def map_flat_keys(
    raw: dict[str, Any], sections: frozenset[str], where: str = "config", announce: bool = True
) -> dict[str, Any]:
    """``raw`` with every flat key moved into its section; warns once per key.

    A string ``model:`` (q-code's ``--model``) is the model path; launcher settings
    (``num_processes``) are skipped with a warning saying where they go. Unknown top-level
    keys, refused keys (``hf_token``) and a setting given both ways raise
    :class:`ConfigKeyError`. ``announce=False`` maps without the renaming warnings (a
    recipe's command-line flags are accepted as they are).
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
                f"{where}: key {key!r} is not a trainer setting and is skipped; "
                f"set it with {LAUNCHER_KEYS[name]}",
                FlatKeyWarning,
                stacklevel=3,
            )
            continue
        if name in REFUSED_KEYS:
            raise ConfigKeyError(f"{where}: key {key!r} is refused: {REFUSED_KEYS[name]}")
        flat_key = FLAT_KEYS.get(name)
        if flat_key is None:
            raise ConfigKeyError(
                f"{where}: unknown key {key!r}: neither a section ({', '.join(sorted(sections))})"
                " nor a known flat key (the mapping table is in docs/trainer.md)"
            )
        section, field = flat_key.target.split(".")
        values = result.setdefault(section, {})
        if not isinstance(values, dict):
            raise ConfigKeyError(f"{where}: section {section!r} must be a mapping")
        if field in values:
            raise ConfigKeyError(
                f"{where}: {flat_key.target!r} is given twice (flat key {key!r} too)"
            )
        values[field] = flat_key.convert(value)
        if not announce:
            continue
        warnings.warn(
            f"{where}: key {key!r} read as {flat_key.target!r} (write it so; "
            "grpo-train convert-config rewrites the file)",
            FlatKeyWarning,
            stacklevel=3,
        )
    return result


def mapping_table() -> str:
    """The Markdown table of flat keys (docs/trainer.md)."""
    lines = ["| flat key | our key | recipe | value |", "|---|---|---|---|"]
    for key, flat_key in FLAT_KEYS.items():
        lines.append(f"| `{key}` | `{flat_key.target}` | {flat_key.recipes} | {flat_key.note} |")
    for key, where in LAUNCHER_KEYS.items():
        lines.append(f"| `{key}` | — (skipped, with a warning) | q-code | {where} |")
    for key, why in REFUSED_KEYS.items():
        lines.append(f"| `{key}` | — (refused) | reasoning-format | {why} |")
    return "\n".join(lines) + "\n"
