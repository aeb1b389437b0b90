"""The command line generated from the config: a flag per key, the short flags declared on
the fields, each value read as its field's type."""

from __future__ import annotations

import argparse
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from trainer.cli import build_parser, main, parse_args, resolve_recipe
from trainer.config import TrainerConfig
from trainer.config_flags import Flag, add_config_flags, config_keys, given_values, yaml_value


def test_every_config_key_is_a_flag() -> None:
    options = build_parser()._option_string_actions
    keys = [item.key for item in config_keys(TrainerConfig)]
    assert "service.timeout_s" in keys and "grpo.beta" in keys and "reward.format_weight" in keys
    assert all(f"--{key}" in options for key in keys)
    # Every key of the resolved config is one of them.
    dumped = TrainerConfig().model_dump()
    assert {f"{s}.{f}" for s, fields in dumped.items() for f in fields} == set(keys)


def test_section_key_flags_set_their_key_read_as_the_fields_type() -> None:
    argv = [
        "--grpo.beta", "0.02",
        "--lora.enabled", "false",
        "--lora.target_modules", "all-linear",
        "--training.report_to", "[tensorboard]",
        "--training.gradient_checkpointing", "true",
        "--data.reasoning_format", "none",
        "--model.path", "1.5",  # a text field keeps its text
        "--reward.mode", "tinyv_only",
        "--service.timeout_s", "9",
        "--training.save_total_limit", "null",
    ]  # fmt: skip
    recipe = resolve_recipe(parse_args(argv), argv)
    config = recipe.config
    assert config.grpo.beta == 0.02 and config.lora.enabled is False
    assert config.lora.target_modules == "all-linear"
    assert config.training.report_to == ["tensorboard"]
    assert config.training.gradient_checkpointing is True
    assert config.data.reasoning_format == "none" and config.model.path == "1.5"
    assert config.reward.mode == "verifier_only" and config.service.http.timeout_s == 9
    assert config.training.save_total_limit is None  # YAML's null: no limit
    assert recipe.sources["grpo.beta"] == "flag --grpo.beta"
    assert recipe.sources["service.timeout_s"] == "flag --service.timeout_s"


def test_a_section_key_flag_wins_over_the_short_one_and_set_over_both() -> None:
    argv = ["--training.max_steps", "4", "--max_steps", "3"]
    assert resolve_recipe(parse_args(argv), argv).config.training.max_steps == 4
    argv += ["--set", "training.max_steps=5"]
    assert resolve_recipe(parse_args(argv), argv).config.training.max_steps == 5


def test_values_outside_the_fields_choices_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--data.reasoning_format", "xml"])
    with pytest.raises(SystemExit):
        parse_args(["--grpo.beta", "a lot"])
    # An enum's value is checked by the config, which knows its aliases.
    assert main(["--reward.mode", "oracle", "--print_config"]) == 2
    assert "reward.mode" in capsys.readouterr().err


def test_short_flags_are_declared_on_their_fields_and_listed_in_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = {item.key: item.flag for item in config_keys(TrainerConfig) if item.flag}
    assert flags["model.path"] == Flag(
        "--model_path", "PATH", "model folder or hub id; 'smollm2': built locally", ("--model",)
    )
    assert flags["training.seed"].name == "--seed" and flags["eval.path"].name == "--eval_dataset"
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    for flag in flags.values():
        assert f"{flag.name} " in text and flag.help in text
        assert all(f"{alias} " not in text for alias in flag.aliases)
    assert "--grpo.beta" not in text  # the per-key flags are not listed, only said to exist


class _Section(BaseModel):
    size: Annotated[int, Flag("--size", "N", "how many")] = Field(1, ge=1)
    kind: Literal["a", "b"] = "a"
    fast: Annotated[bool, Flag("--fast", help="go fast", aliases=("--quick",))] = False


class _Config(BaseModel):
    part: _Section = Field(default_factory=_Section)


def test_a_field_with_a_flag_is_all_a_new_flag_takes() -> None:
    parser = argparse.ArgumentParser()
    add_config_flags(parser, _Config)
    argv = ["--size", "3", "--quick", "--part.kind", "b"]
    given = given_values(parser.parse_args(argv), argv, _Config)
    assert [(g.key, g.value, g.source) for g in given] == [
        ("part.size", 3, "flag --size"),
        ("part.fast", True, "flag --quick"),
        ("part.kind", "b", "flag --part.kind"),
    ]


def test_yaml_values() -> None:
    assert yaml_value("[a, b]") == ["a", "b"] and yaml_value("false") is False
