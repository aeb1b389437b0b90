"""Resolving a run's settings in-process: layers, the seed's values, and each value's source."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.contract.http_policy import HttpPolicy
from trainer.recipe import PROJECT_DEFAULT, Layer, RecipeError, explain, file_layer, leaves, resolve
from trainer.recipe_defaults import DEFAULTS


def test_leaves_are_section_dot_key() -> None:
    values = {"grpo": {"beta": 0.1}, "service": {"url": ["u"], "retries": 2}, "lone": None}
    assert list(leaves(values)) == [
        ("grpo.beta", 0.1),
        ("service.url", ["u"]),
        ("service.retries", 2),
    ]


def test_later_layers_win_and_each_value_names_its_source() -> None:
    recipe = resolve(
        [
            Layer({"grpo": {"beta": 0.1, "epsilon": 0.3}}, "file a.yaml"),
            Layer({"grpo": {"beta": 0.2}}, "flag --beta"),
        ],
        name="none",
    )
    assert (recipe.config.grpo.beta, recipe.config.grpo.epsilon) == (0.2, 0.3)
    assert recipe.sources["grpo.beta"] == "flag --beta"
    assert recipe.sources["grpo.epsilon"] == "file a.yaml"
    assert recipe.sources["lora.r"] == PROJECT_DEFAULT
    assert recipe.name is None


def test_a_recognised_seed_fills_what_the_layers_leave_open() -> None:
    recipe = resolve([Layer({"lora": {"r": 4}}, "file s.yaml", {"lora_r"})])
    assert recipe.name == "math-lora" and "lora_r" in recipe.recognition
    assert recipe.config.lora.r == 4 and recipe.sources["lora.r"] == "file s.yaml"
    assert recipe.sources["lora.alpha"].startswith("recipe math-lora: ")
    assert recipe.config.lora.alpha == DEFAULTS["math-lora"]["lora.alpha"].value


def test_a_seed_that_needs_a_dataset_says_so() -> None:
    with pytest.raises(RecipeError):
        resolve([], name="reasoning-format")


def test_an_invalid_value_is_one_line_naming_the_key() -> None:
    with pytest.raises(RecipeError, match=r"grpo\.num_generations"):
        resolve([Layer({"grpo": {"num_generations": 1}}, "file bad.yaml")], name="none")


def test_service_policy_keys_are_attributed_to_the_file(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("service:\n  api_key: secret\n  http:\n    retries: 1\n  timeout_s: 9\n")
    recipe = resolve([file_layer(path)], name="none")
    assert recipe.config.service.http == HttpPolicy(retries=1, timeout_s=9)
    text = explain(recipe)
    assert f"= 1  [file {path}]" in next(line for line in text.splitlines() if "retries" in line)
    assert f"= 9.0  [file {path}]" in next(
        line for line in text.splitlines() if line.startswith("service.timeout_s")
    )
    assert "[project default]" in next(
        line for line in text.splitlines() if line.startswith("service.backoff_s")
    )
    assert "secret" not in text and "api_key" not in text
