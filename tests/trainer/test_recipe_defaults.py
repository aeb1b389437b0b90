"""Which recipe a run is, from the keys only that recipe's guide uses, and what each sets."""

from __future__ import annotations

from trainer.config import TrainerConfig
from trainer.recipe import leaves
from trainer.recipe_defaults import DEFAULTS, RECIPES, SIGNATURES, recognise


def test_the_recipes_are_named_for_what_they_train() -> None:
    assert RECIPES == ("math-lora", "reasoning-format", "q-code", "tinyv-rubric")


def test_one_recipes_own_key_recognises_it() -> None:
    for name in RECIPES:
        key = sorted(SIGNATURES[name])[0]
        found, why = recognise({key, "learning_rate"})
        assert found == name and key in why


def test_no_recipe_or_several_recipes_give_no_defaults() -> None:
    assert recognise({"learning_rate", "output_dir"}) == (None, "no recipe's own keys or flags")
    found, why = recognise({"lora_r", "model_size"})
    assert found is None and "math-lora: lora_r" in why and "reasoning-format: model_size" in why
    assert "--recipe" in why


def test_signatures_are_disjoint() -> None:
    for name in RECIPES:
        others = set().union(*(SIGNATURES[n] for n in RECIPES if n != name))
        assert not SIGNATURES[name] & others


def test_every_recipe_value_is_a_setting_that_validates() -> None:
    settings = {key for key, _ in leaves(TrainerConfig().model_dump())}
    for name in RECIPES:
        assert set(DEFAULTS[name]) <= settings, name
        values: dict[str, dict[str, object]] = {}
        for key, recipe_value in DEFAULTS[name].items():
            section, field = key.split(".")
            values.setdefault(section, {})[field] = recipe_value.value
            assert recipe_value.why, key
        TrainerConfig.model_validate(values)


def test_the_verl_recipes_count_their_batch_in_prompts() -> None:
    for name in ("reasoning-format", "tinyv-rubric"):
        assert DEFAULTS[name]["training.batch_size_counts"].value == "prompts"
    for name in ("math-lora", "q-code"):
        assert "training.batch_size_counts" not in DEFAULTS[name]
