"""``grpo-train``: GRPO training with rewards from the reward-verifier service.

    grpo-train --config trainer/configs/math.yaml --model_path /models/qwen --service_url http://rm:8000
    grpo-train --recipe math-lora --seed 42 --model_path /models/qwen --dataset train.jsonl

Flags override the YAML; ``--service_url auto`` (or ``service.url: auto``) starts a local
service for the run and stops it afterwards. ``--recipe`` picks a named recipe
(:mod:`trainer.recipe_defaults`), ``--seed`` is the random seed. The command lines of the
guides the recipes come from run as written (reasoning-format's dashed flags, q-code's
``--model … --use_vllm``): those flags are listed by ``--help-recipe-flags``.
``--explain`` prints the resolved recipe, each value with where it came from.

    grpo-train convert-config flat_config.yaml -o trainer/configs/mine.yaml

rewrites a config with flat keys (such as ``lora_r``, ``kl_coef``) in sections.
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

from trainer.config import TrainerConfig, read_raw
from trainer.config_flags import add_config_flags, config_keys, given_values
from trainer.flat_config import FLAT_KEYS, map_flat_keys
from trainer.recipe import Layer, Recipe, RecipeError, explain, file_layer, resolve
from trainer.recipe_defaults import RECIPES
from trainer.recipe_flags import (
    RECIPE_FLAGS_TITLE,
    add_recipe_flags,
    given_recipe_flags,
    hub_offline_reason,
)

# The recipes' former numbers, as ``--seed 001`` chose them before ``--recipe``.
FORMER_RECIPE_NUMBERS = dict(zip(("001", "002", "003", "004"), RECIPES, strict=True))

# Recipe flags shown in the main --help: the usual Hugging Face spelling of a common setting.
LISTED_RECIPE_FLAGS = frozenset({"--learning_rate"})

USAGE = """grpo-train [--config FILE] [--recipe NAME] [--seed N] [options]
       grpo-train convert-config SRC [-o DST]"""

DESCRIPTION = """\
GRPO training (TRL) with every reward from the reward-verifier service over HTTP.

  grpo-train --config trainer/configs/demo_cpu.yaml
  grpo-train --recipe math-lora --seed 42 --model_path /models/qwen --dataset train.jsonl \\
      --service_url http://verifier:8000

Flags override the YAML; every config key is a flag too: --section.field VALUE (docs/trainer.md)."""


class _RecipeFlagsHelp(argparse.Action):
    """``--help-recipe-flags``: the recipes' own flags, then exit."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help=str(kwargs.get("help")))

    def __call__(self, parser: argparse.ArgumentParser, *_: object, **__: object) -> None:
        flags = argparse.ArgumentParser(
            prog="grpo-train",
            usage="grpo-train [options] [recipe flags]",
            description="Flags of the guides the recipes come from, accepted so that their "
            "command lines run as written. Each sets the flat key of the same name (the "
            "mapping table is in docs/trainer.md).",
            epilog="Other spellings, also accepted: "
            + ", ".join(
                f"{alias} ({item.flag.name})"
                for item in config_keys(TrainerConfig)
                if item.flag is not None
                for alias in item.flag.aliases
            )
            + ".",
            add_help=False,
        )
        add_recipe_flags(flags, shown=True)
        flags.add_argument_group(RECIPE_FLAGS_TITLE).add_argument(
            "--hf-token", help="reasoning-format: a Hugging Face token (HF_TOKEN for the run)"
        )
        flags.print_help()
        parser.exit()


def former_spelling(argv: Sequence[str]) -> str | None:
    """A one-line message for ``--seed 001`` (a recipe, before --recipe) or ``--seed none``."""
    for index, token in enumerate(argv):
        flag, sep, value = token.partition("=")
        if flag != "--seed":
            continue
        if not sep:
            value = argv[index + 1] if index + 1 < len(argv) else ""
        if value in FORMER_RECIPE_NUMBERS:
            return (
                f"--seed is the random seed; choose recipe {value} with "
                f"--recipe {FORMER_RECIPE_NUMBERS[value]}"
            )
        if value == "none":
            return "--seed is the random seed; for no recipe use --recipe none"
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="grpo-train",
        usage=USAGE,
        description=DESCRIPTION,
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(
            prog, max_help_position=34, width=100
        ),
        # "--model" is q-code's flag, not an abbreviation of "--model_path".
        allow_abbrev=False,
    )
    add = parser.add_argument
    add("--help-recipe-flags", action=_RecipeFlagsHelp, help="the recipes' own flags, and exit")
    add("--config", type=Path, metavar="FILE", help="YAML config (defaults apply without one)")
    add(
        "--recipe",
        choices=[*RECIPES, "none"],
        metavar="NAME",
        help=f"a named recipe's defaults: {', '.join(RECIPES)}",
    )
    add_config_flags(parser, TrainerConfig)
    add(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any config key (section.field), value in YAML; repeatable",
    )
    add("--explain", action="store_true", help="print each resolved value with its source")
    add("--print_config", action="store_true", help="print the resolved config as YAML")
    add("--hf-token", dest="hf_token", help=argparse.SUPPRESS)
    add_recipe_flags(parser, listed=LISTED_RECIPE_FLAGS)
    return parser


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    former = former_spelling(argv)
    if former is not None:
        parser.exit(2, f"grpo-train: error: {former}\n")
    return parser.parse_args(argv)


def _set_layer(setting: str) -> Layer:
    key, sep, text = setting.partition("=")
    if not sep or not key:
        raise RecipeError(f"--set {setting!r}: expected KEY=VALUE")
    value = yaml.safe_load(text)
    sections = frozenset(TrainerConfig.model_fields)
    section, dot, name = key.partition(".")
    if dot and section in sections:
        return Layer({section: {name: value}}, f"flag --set {key}")
    if key.replace("-", "_") in FLAT_KEYS:
        values = map_flat_keys({key: value}, sections, f"--set {key}", announce=False)
        return Layer(values, f"flag --set {key}", {key.replace("-", "_")})
    raise RecipeError(f"--set {key}: neither section.field nor a known flat key")


def command_layers(args: argparse.Namespace, argv: Sequence[str]) -> list[Layer]:
    """The layers of a command line: the file, the recipe flags, the config's flags (the
    short ones, then ``--section.field``), ``--set``."""
    sections = frozenset(TrainerConfig.model_fields)
    layers = [file_layer(args.config)] if args.config is not None else []
    for flag, value in given_recipe_flags(args):
        where = f"flag {flag.flag}"
        values = map_flat_keys({flag.key: value}, sections, where, announce=False)
        layers.append(Layer(values, where, {flag.key, flag.flag}))
    for given in given_values(args, argv, TrainerConfig):
        section, name = given.key.split(".")
        keys = set(given.spellings)
        if given.value == "tinyv_only":  # TinyV's own name for the mode: tinyv-rubric's
            keys.add("tinyv_only")
        layers.append(Layer({section: {name: given.value}}, given.source, keys))
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
    return resolve(command_layers(args, argv), args.recipe)


def resolve_config(args: argparse.Namespace) -> TrainerConfig:
    return resolve_recipe(args).config


def convert_config(argv: Sequence[str]) -> int:
    """``grpo-train convert-config SRC [-o DST]``: a flat-key YAML written in sections."""
    parser = argparse.ArgumentParser(
        prog="grpo-train convert-config",
        description="Rewrite a config with flat keys (lora_r, kl_coef, ...) in sections.",
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
    from trainer.progress import PLOT_FILE
    from trainer.training import train

    config = recipe.config
    notes = [f"differs from {recipe.name}'s guide: {line}" for line in recipe.differences]
    conversion = config.batch_conversion()
    notes += [conversion] if conversion is not None else []
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
            output_dir = train(config, startup_notes=notes)
    except RewardsUnavailable as exc:
        return _fail(str(exc), 1)
    print(f"\nDone: the model, training.log and metrics.jsonl are in {output_dir}/")
    plot = output_dir / PLOT_FILE
    if plot.exists():
        print(f"Reward and accuracy per step: {plot}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["convert-config"]:
        return convert_config(argv[1:])
    args = parse_args(argv)
    # A renamed flat key is one line, not a warning with its source line.
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
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per reward request
    return run(recipe)


if __name__ == "__main__":
    sys.exit(main())
