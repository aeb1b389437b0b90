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
