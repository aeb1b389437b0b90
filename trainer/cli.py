"""``grpo-train``: GRPO training with rewards from the reward-verifier service.

    grpo-train --config trainer/configs/math.yaml --model_path /models/qwen --service_url http://rm:8000

Flags override the YAML; ``--service_url auto`` (or ``service.url: auto``) starts a local
service for the run and stops it afterwards.

    grpo-train convert-config seed_config.yaml -o trainer/configs/mine.yaml

rewrites a seed-format config (flat keys such as ``lora_r``, ``kl_coef``) in sections.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from trainer.config import CLI_OVERRIDES, TrainerConfig, load_config, read_raw


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="grpo-train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", type=Path, help="YAML config (defaults apply without one)")
    parser.add_argument("--model_path", help="model folder or hub id ('smollm2' = built locally)")
    parser.add_argument("--dataset", help="training set: .json, .jsonl or .parquet")
    parser.add_argument("--service_url", help="service URL(s), comma-separated, or 'auto'")
    parser.add_argument("--output_dir", help="checkpoints, training.log, metrics.jsonl")
    parser.add_argument("--max_samples", type=int, help="use the first N rows only")
    parser.add_argument("--max_steps", type=int, help="stop after N optimiser steps")
    parser.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        help="resume from a checkpoint folder; alone: the newest in output_dir",
    )
    parser.add_argument(
        "--mode",
        choices=["rule", "addon", "mixed", "verifier_only"],
        help="judge mode of the reward service (reward.mode)",
    )
    parser.add_argument(
        "--verifier_weight",
        type=float,
        help="LLM verifier weight w in addon/mixed (reward.verifier_weight)",
    )
    parser.add_argument(
        "--print_config", action="store_true", help="print the resolved config as YAML and exit"
    )
    return parser.parse_args(argv)


def resolve_config(args: argparse.Namespace) -> TrainerConfig:
    overrides = {flag: getattr(args, flag) for flag in CLI_OVERRIDES}
    return load_config(args.config, overrides)


def convert_config(argv: Sequence[str]) -> int:
    """``grpo-train convert-config SRC [-o DST]``: a seed-format YAML written in sections."""
    import yaml

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


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["convert-config"]:
        return convert_config(argv[1:])
    args = parse_args(argv)
    config = resolve_config(args)
    if args.print_config:
        import yaml

        print(yaml.safe_dump(config.model_dump(mode="json"), sort_keys=False))
        return 0
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # Heavy imports (torch, TRL) only once the config is known to be valid.
    from trainer.local_service import local_service
    from trainer.training import train

    with ExitStack() as stack:
        if config.service.auto:
            url = stack.enter_context(
                local_service(config.service.startup_timeout_s, Path(config.training.output_dir))
            )
            config.service.url = [url]
        train(config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
