"""Which seed a run is, from the keys only that seed uses, and what each seed sets."""

from __future__ import annotations

from trainer.config import TrainerConfig
from trainer.recipe import leaves
from trainer.seed_recipes import DEFAULTS, SEEDS, SIGNATURES, recognise


def test_one_seeds_own_key_recognises_it() -> None:
    for seed in SEEDS:
        key = sorted(SIGNATURES[seed])[0]
        found, why = recognise({key, "learning_rate"})
        assert found == seed and key in why


def test_no_seed_or_several_seeds_give_no_defaults() -> None:
    assert recognise({"learning_rate", "output_dir"}) == (None, "no seed's own keys or flags")
    found, why = recognise({"lora_r", "model_size"})
    assert found is None and "seed 001: lora_r" in why and "seed 002: model_size" in why


def test_signatures_are_disjoint() -> None:
    for seed in SEEDS:
        others = set().union(*(SIGNATURES[s] for s in SEEDS if s != seed))
        assert not SIGNATURES[seed] & others


def test_every_seed_value_is_a_setting_that_validates() -> None:
    settings = {key for key, _ in leaves(TrainerConfig().model_dump())}
    for seed in SEEDS:
        assert set(DEFAULTS[seed]) <= settings, seed
        values: dict[str, dict[str, object]] = {}
        for key, seed_value in DEFAULTS[seed].items():
            section, name = key.split(".")
            values.setdefault(section, {})[name] = seed_value.value
            assert seed_value.why, key
        TrainerConfig.model_validate(values)
