"""The seed documents' command-line flags: parsed as the seeds write them, kept apart by
spelling, and each the flat seed key of the same name."""

from __future__ import annotations

import argparse

import pytest

from trainer.seed_flags import SEED_FLAGS, add_seed_flags, given_seed_flags, hub_offline_reason
from trainer.seed_format import SEED_KEYS


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_seed_flags(parser)
    return parser.parse_args(argv)


def test_flags_parse_as_the_seeds_write_them() -> None:
    args = parse(["--model-size", "1.5B", "--use-lora", "--learning_rate", "2e-6"])
    given = {flag.flag: value for flag, value in given_seed_flags(args)}
    assert given == {"--model-size": "1.5B", "--use-lora": True, "--learning_rate": 2e-6}
    # Seed 002's dashed and seed 003's underscored spelling stay two settings.
    assert {flag.key for flag in SEED_FLAGS if flag.flag.startswith("--learning")} == {
        "learning_rate"
    }
    assert len({flag.dest for flag in SEED_FLAGS}) == len(SEED_FLAGS)


def test_an_unknown_model_size_is_refused() -> None:
    with pytest.raises(SystemExit):
        parse(["--model-size", "70B"])


def test_every_flag_is_a_seed_key() -> None:
    assert {flag.key for flag in SEED_FLAGS} <= set(SEED_KEYS)


def test_hub_offline_reason_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert hub_offline_reason() == "HF_HUB_OFFLINE is set"
