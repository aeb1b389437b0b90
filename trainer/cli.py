"""``grpo-train``: GRPO training with rewards from the reward-verifier service.

    grpo-train --config trainer/configs/math.yaml --model_path /models/qwen --service_url http://rm:8000

Flags override the YAML; ``--service_url auto`` (or ``service.url: auto``) starts a local
service for the run and stops it afterwards. The seed documents' command lines run as
written (seed 002's dashed flags, seed 003's ``--model … --use_vllm``); ``--explain``
prints the resolved recipe, each value with where it came from.

    grpo-train convert-config seed_config.yaml -o trainer/configs/mine.yaml

rewrites a seed-format config (flat keys such as ``lora_r``, ``kl_coef``) in sections.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import warnings
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import yaml

from trainer.config import CLI_OVERRIDES, TrainerConfig, read_raw
from trainer.recipe import Layer, Recipe, RecipeError, explain, file_layer, resolve
from trainer.seed_flags import add_seed_flags, given_seed_flags, hub_offline_reason
from trainer.seed_format import SEED_KEYS, map_seed_keys
from trainer.seed_recipes import SEEDS

# Project flags that set one config key each, beyond CLI_OVERRIDES.
EXTRA_OVERRIDES: dict[str, tuple[str, str]] = {
    "eval_dataset": ("eval", "path"),
    "allow_unavailable": ("reward", "allow_unavailable"),
}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="grpo-train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        # "--model" is seed 003's flag, not an abbreviation of "--model_path".
        allow_abbrev=False,
    )
    parser.add_argument("--config", type=Path, help="YAML config (defaults apply without one)")
    parser.add_argument(
        "--model_path",
        "--model",
        dest="model_path",
        help="model folder or hub id ('smollm2' = built locally); a checkpoint-N folder of "
        "ours resumes that run",
    )
    parser.add_argument("--dataset", help="training set: .json, .jsonl or .parquet")
    parser.add_argument("--eval_dataset", help="evaluation set (eval.path)")
    parser.add_argument("--service_url", help="service URL(s), comma-separated, or 'auto'")
    parser.add_argument("--output_dir", help="checkpoints, training.log, metrics.jsonl")
    parser.add_argument("--max_samples", type=int, help="use the first N rows only")
    parser.add_argument(
        "--max_steps", "--max-steps", dest="max_steps", type=int, help="stop after N steps"
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        help="resume from a checkpoint folder; alone: the newest in output_dir",
    )
    parser.add_argument(
        "--mode",
        choices=["rule", "addon", "mixed", "verifier_only", "tinyv_only"],
        help="judge mode of the reward service (reward.mode; tinyv_only = verifier_only)",
    )
    parser.add_argument(
        "--verifier_weight",
        type=float,
        help="LLM verifier weight w in addon/mixed (reward.verifier_weight)",
    )
    parser.add_argument(
        "--seed",
        choices=[*SEEDS, "none"],
        help="follow this seed document's defaults (normally recognised from its keys/flags)",
    )
    parser.add_argument(
        "--allow-unavailable",
        "--allow_unavailable",
        dest="allow_unavailable",
        action="store_const",
        const=True,
        help="train even when the preflight finds rewards the service cannot compute",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set any config key (section.field or a seed key), value in YAML; repeatable",
    )
    parser.add_argument("--hf-token", dest="hf_token", help="seed 002: a Hugging Face token")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print the resolved recipe, each value with its source, and exit",
    )
    parser.add_argument(
        "--print_config", action="store_true", help="print the resolved config as YAML and exit"
    )
    add_seed_flags(parser)
    return parser.parse_args(argv)


def _flag_spellings(argv: Sequence[str]) -> list[str]:
    """The flags of a command line as spelled, in order (the last of a repeated one wins)."""
    return [token.split("=", 1)[0] for token in argv if token.startswith("--")]


def _set_layer(setting: str) -> Layer:
    key, sep, text = setting.partition("=")
    if not sep or not key:
        raise RecipeError(f"--set {setting!r}: expected KEY=VALUE")
    value = yaml.safe_load(text)
    sections = frozenset(TrainerConfig.model_fields)
    section, dot, name = key.partition(".")
    if dot and section in sections:
        return Layer({section: {name: value}}, f"flag --set {key}")
    if key.replace("-", "_") in SEED_KEYS:
        values = map_seed_keys({key: value}, sections, f"--set {key}", announce=False)
        return Layer(values, f"flag --set {key}", {key.replace("-", "_")})
    raise RecipeError(f"--set {key}: neither section.field nor a seed key")


def command_layers(args: argparse.Namespace, argv: Sequence[str]) -> list[Layer]:
    """The layers of a command line: the file, the seed flags, our flags, ``--set``."""
    sections = frozenset(TrainerConfig.model_fields)
    layers = [file_layer(args.config)] if args.config is not None else []
    spellings = _flag_spellings(argv)
    for flag, value in given_seed_flags(args):
        where = f"flag {flag.flag}"
        values = map_seed_keys({flag.key: value}, sections, where, announce=False)
        layers.append(Layer(values, where, {flag.key, flag.flag}))
    overrides: dict[str, tuple[str, str]] = {**CLI_OVERRIDES, **EXTRA_OVERRIDES}
    for dest, (section, name) in overrides.items():
        value = getattr(args, dest)
        if value is not None:
            spelled = [
                s
                for s in spellings
                if s.lstrip("-").replace("-", "_") == dest or (dest, s) == ("model_path", "--model")
            ]
            source = f"flag {spelled[-1] if spelled else '--' + dest}"
            keys = set(spelled)
            if value == "tinyv_only":  # TinyV's own name for the mode: seed 004's
                keys.add("tinyv_only")
            layers.append(Layer({section: {name: value}}, source, keys))
    layers += [_set_layer(setting) for setting in args.settings]
    return layers


def resolve_recipe(args: argparse.Namespace, argv: Sequence[str] = ()) -> Recipe:
    if args.hf_token is not None:
        offline = hub_offline_reason()
        if offline is not None:
            raise RecipeError(
                f"--hf-token is refused: {offline}, so the token could not be used; load the "
                "model and data from local paths (--model_path, --dataset) and drop the flag"
            )
        # The token goes to huggingface_hub through the environment: never into config.yaml.
        os.environ["HF_TOKEN"] = args.hf_token
    return resolve(command_layers(args, argv), args.seed)


def resolve_config(args: argparse.Namespace) -> TrainerConfig:
    return resolve_recipe(args).config


def convert_config(argv: Sequence[str]) -> int:
    """``grpo-train convert-config SRC [-o DST]``: a seed-format YAML written in sections."""
    parser = argparse.ArgumentParser(
        prog="grpo-train convert-config",
        description="Rewrite a seed-format config (flat keys) in this trainer's sections.",
    )
    parser.add_argument("source", type=Path, help="the YAML to convert")
    parser.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    args = parser.parse_args(argv)
    raw = read_raw(args.source)
    TrainerConfig.model_validate(raw)  # the converted file must load
    text = yaml.safe_dump(raw, sort_keys=False, allow_unicode=True)
    if args.output is None:
        print(text, end="")
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


def _fail(message: str, code: int) -> int:
    print(f"grpo-train: error: {' '.join(message.split())}", file=sys.stderr)
    return code


def missing_files(recipe: Recipe) -> str | None:
    """The dataset files the recipe names that do not exist, with where each name came from."""
    from trainer.data import locate

    config = recipe.config
    named = {"data.path": config.data.path, "eval.path": config.eval.path}
    missing = [
        f"{key} {path!r} not found (from {recipe.sources[key]})"
        for key, path in named.items()
        if path is not None and not locate(path).exists()
    ]
    if not missing:
        return None
    return "; ".join(missing) + "; pass --dataset / --eval_dataset FILE"


def run(recipe: Recipe) -> int:
    """Train the recipe; 1 with the reason when its rewards cannot be computed."""
    # Heavy imports (torch, TRL) only once the config is known to be valid.
    from trainer.local_service import local_service
    from trainer.preflight import RewardsUnavailable
    from trainer.training import train

    config = recipe.config
    notes = [f"differs from seed {recipe.seed}: {line}" for line in recipe.differences]
    notes += recipe.adjustments
    try:
        with ExitStack() as stack:
            if config.service.auto:
                url = stack.enter_context(
                    local_service(
                        config.service.startup_timeout_s, Path(config.training.output_dir)
                    )
                )
                config.service.url = [url]
            train(config, startup_notes=notes)
    except RewardsUnavailable as exc:
        return _fail(str(exc), 1)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["convert-config"]:
        return convert_config(argv[1:])
    args = parse_args(argv)
    # A renamed seed key is one line, not a warning with its source line.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            recipe = resolve_recipe(args, argv)
        except (ValueError, FileNotFoundError, yaml.YAMLError) as exc:
            # Config input: RecipeError, ConfigKeyError and YAML errors say what to change.
            return _fail(str(exc), 2)
        finally:
            for warning in caught:
                print(f"grpo-train: warning: {warning.message}", file=sys.stderr)
    if args.explain:
        print(explain(recipe), end="")
        return 0
    if args.print_config:
        print(yaml.safe_dump(recipe.config.model_dump(mode="json"), sort_keys=False))
        return 0
    missing = missing_files(recipe)
    if missing:
        return _fail(missing, 2)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    return run(recipe)


if __name__ == "__main__":
    sys.exit(main())
