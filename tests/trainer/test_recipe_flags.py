"""The recipes' own command-line flags: parsed as their guides write them, kept apart by
spelling, each the flat key of the same name, and out of the main --help."""

from __future__ import annotations

import argparse

import pytest

from trainer.flat_config import FLAT_KEYS
from trainer.recipe_flags import (
    RECIPE_FLAGS,
    add_recipe_flags,
    given_recipe_flags,
    hub_offline_reason,
)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_recipe_flags(parser)
    return parser.parse_args(argv)


def test_flags_parse_as_the_guides_write_them() -> None:
    args = parse(["--model-size", "1.5B", "--use-lora", "--learning_rate", "2e-6"])
    given = {flag.flag: value for flag, value in given_recipe_flags(args)}
    assert given == {"--model-size": "1.5B", "--use-lora": True, "--learning_rate": 2e-6}
    # reasoning-format's dashed and q-code's underscored spelling stay two settings.
    assert {flag.key for flag in RECIPE_FLAGS if flag.flag.startswith("--learning")} == {
        "learning_rate"
    }
    assert len({flag.dest for flag in RECIPE_FLAGS}) == len(RECIPE_FLAGS)


def test_an_unknown_model_size_is_refused() -> None:
    with pytest.raises(SystemExit):
        parse(["--model-size", "70B"])


def test_every_flag_is_a_flat_key() -> None:
    assert {flag.key for flag in RECIPE_FLAGS} <= set(FLAT_KEYS)


def test_hub_offline_reason_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert hub_offline_reason() == "HF_HUB_OFFLINE is set"


def test_each_flag_reads_what_its_key_holds() -> None:
    by_flag = {flag.flag: flag for flag in RECIPE_FLAGS}
    # The config field the key sets: an int, a float, a text, a yes/no (a switch).
    assert by_flag["--batch-size"].type is int and by_flag["--generation_temp"].type is float
    assert by_flag["--wandb_name"].type is str and by_flag["--use-lora"].type is None
    # A converted key: what its converter takes (true → [wandb]).
    assert by_flag["--use_wandb"].type is None and by_flag["--model-size"].type is str
    assert by_flag["--max_model_len"].help == "generation.vllm_max_model_length"
    assert parse(["--batch-size", "2", "--use_wandb"]).__dict__["recipe_flag--batch-size"] == 2
    with pytest.raises(SystemExit):
        parse(["--batch-size", "two"])
