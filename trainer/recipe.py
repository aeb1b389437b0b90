"""The resolved recipe of a run: every setting, and where its value came from.

Layers, later ones winning: project defaults < the recognised recipe's values
(:mod:`trainer.recipe_defaults`) < the config file < command-line flags. Then what this
machine cannot do is adjusted and said: a missing wandb logs locally, a missing vLLM
generates with transformers, and a ``model.path`` that is one of our checkpoints resumes
that run instead of stacking a second adapter. ``grpo-train --explain`` prints it all.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from trainer.checkpoints import base_model_of_checkpoint
from trainer.config import TrainerConfig, read_raw
from trainer.flat_config import flat_keys
from trainer.recipe_defaults import DEFAULTS, DIFFERENCES, REQUIRED, recognise

PROJECT_DEFAULT = "project default"


class RecipeError(ValueError):
    """A run that cannot be set up as asked; the message says what to change."""


@dataclass
class Layer:
    """Settings in sections, all from one source (a file, or one flag)."""

    values: dict[str, Any]
    source: str
    keys: set[str] = field(default_factory=set)  # flat keys and flags, for recognition


@dataclass
class Recipe:
    config: TrainerConfig
    name: str | None  # the recipe (math-lora, ...); None: project defaults only
    recognition: str
    sources: dict[str, str]
    differences: list[str]
    adjustments: list[str]


def leaves(values: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """("section.field", value) for every setting in a sectioned mapping."""
    for section, fields in values.items():
        if isinstance(fields, dict):
            for name, value in fields.items():
                yield f"{section}.{name}", value


def file_layer(path: Path) -> Layer:
    import yaml

    values = read_raw(path)  # raises, with the reason, for a missing or malformed file
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    keys = set(flat_keys(loaded, frozenset(TrainerConfig.model_fields))) if loaded else set()
    return Layer(values, f"file {path}", keys)


def _one_line(error: ValidationError) -> str:
    parts = []
    for problem in error.errors():
        where = ".".join(str(part) for part in problem["loc"])
        message = str(problem["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _validated(values: dict[str, Any]) -> TrainerConfig:
    try:
        return TrainerConfig.model_validate(values)
    except ValidationError as exc:
        raise RecipeError(f"invalid config: {_one_line(exc)}") from None


def resolve(layers: list[Layer], name: str | None = None) -> Recipe:
    """Merge ``layers`` (in order) over the recipe's values and the project defaults.

    ``name`` is a recipe chosen with ``--recipe`` ("none": none); None recognises it.
    """
    keys = set().union(*(layer.keys for layer in layers))
    recognition = f"chosen with --recipe {name}"
    if name is None:
        name, recognition = recognise(keys)
    elif name == "none":
        name, recognition = None, "none (--recipe none)"
    merged: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    for layer in layers:
        for section, value in layer.values.items():
            if value is not None and not isinstance(value, dict):
                raise RecipeError(f"{layer.source}: section {section!r} must be a mapping")
        for key, value in leaves(layer.values):
            section, field_name = key.split(".")
            merged.setdefault(section, {})[field_name] = value
            sources[key] = layer.source
    if name is not None:
        for key, why in REQUIRED.get(name, {}).items():
            if key not in sources:
                raise RecipeError(why)
        for key, recipe_value in DEFAULTS[name].items():
            if key not in sources:
                section, field_name = key.split(".")
                merged.setdefault(section, {})[field_name] = recipe_value.value
                sources[key] = f"recipe {name}: {recipe_value.why}"
    config = _validated(merged)
    for key, _ in leaves(config.model_dump()):
        sources.setdefault(key, PROJECT_DEFAULT)
    adjustments = adjust_for_this_machine(config, sources)
    return Recipe(
        config=config,
        name=name,
        recognition=recognition,
        sources=sources,
        differences=list(DIFFERENCES.get(name, [])) if name else [],
        adjustments=adjustments,
    )


def adjust_for_this_machine(config: TrainerConfig, sources: dict[str, str]) -> list[str]:
    """Change what cannot run here into what can, and say so (one line each)."""
    notes: list[str] = []
    base = base_model_of_checkpoint(config.model.path)
    if base is not None and config.training.resume is None:
        checkpoint = config.model.path
        config.model.path, config.training.resume = base, checkpoint
        sources["model.path"] = f"the base model of the run that wrote {checkpoint}"
        sources["training.resume"] = f"model.path {checkpoint} is a checkpoint of ours"
        notes.append(
            f"{checkpoint} is a checkpoint of ours: resuming it (adapter, optimizer, step) "
            f"on its base model {base}"
        )
    if "wandb" in config.training.report_to and importlib.util.find_spec("wandb") is None:
        config.training.report_to = [t for t in config.training.report_to if t != "wandb"]
        sources["training.report_to"] = "adjusted: wandb is not installed"
        notes.append(
            "wandb is not installed: logging locally only (metrics.jsonl, training.log); "
            "pip install wandb to send the run there"
        )
    if config.generation.use_vllm and importlib.util.find_spec("vllm") is None:
        config.generation.use_vllm = False
        sources["generation.use_vllm"] = "adjusted: vLLM is not installed"
        notes.append(
            "vLLM is not installed: generating with transformers (slower, same samples); "
            "install vllm on a GPU machine for vLLM generation"
        )
    return notes


def explain(recipe: Recipe) -> str:
    """Every resolved value with its source, then the differences and the adjustments."""
    lines = [f"recipe: {recipe.name or 'none'} ({recipe.recognition})", ""]
    values = dict(leaves(recipe.config.model_dump(mode="json")))
    values.pop("service.api_key", None)
    width = max(len(key) for key in values)
    for key, value in values.items():
        lines.append(f"{key:<{width}} = {json.dumps(value)}  [{recipe.sources[key]}]")
    if recipe.differences:
        lines += ["", f"where this project differs from {recipe.name}'s guide on purpose:"]
        lines += [f"  - {line}" for line in recipe.differences]
    conversion = recipe.config.batch_conversion()
    if conversion is not None:
        lines += ["", "converted for TRL:", f"  - {conversion}"]
    if recipe.adjustments:
        lines += ["", "adjusted for this machine:"]
        lines += [f"  - {line}" for line in recipe.adjustments]
    return "\n".join(lines) + "\n"
