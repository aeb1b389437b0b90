"""grpo-train's command line: the documented overrides over the YAML, --recipe and --seed,
the help, and --print_config."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from trainer.cli import main, parse_args, resolve_config, resolve_recipe
from trainer.recipe import explain

CONFIGS = Path(__file__).resolve().parents[2] / "trainer" / "configs"


def test_cli_overrides_win_over_yaml() -> None:
    args = parse_args(
        [
            "--config",
            str(CONFIGS / "math.yaml"),
            "--model_path",
            "/models/m",
            "--dataset",
            "d.parquet",
            "--service_url",
            "http://a:1,http://b:2/",
            "--output_dir",
            "/tmp/o",
            "--max_samples",
            "7",
            "--max_steps",
            "9",
            "--resume",
        ]
    )
    config = resolve_config(args)
    assert config.model.path == "/models/m"
    assert config.data.path == "d.parquet"
    assert config.service.url == ["http://a:1", "http://b:2"]
    assert config.training.output_dir == "/tmp/o"
    assert config.data.max_samples == 7
    assert config.training.max_steps == 9
    assert config.training.resume == "latest"
    assert config.grpo.beta == 0.05  # untouched YAML values stay


def test_mode_and_verifier_weight_flags() -> None:
    args = parse_args(
        ["--config", str(CONFIGS / "math.yaml"), "--mode", "mixed", "--verifier_weight", "0.3"]
    )
    config = resolve_config(args)
    assert (config.reward.mode, config.reward.verifier_weight) == ("mixed", 0.3)
    with pytest.raises(SystemExit):
        parse_args(["--mode", "oracle"])


def test_resume_takes_a_path() -> None:
    assert resolve_config(parse_args(["--resume", "/ckpt/checkpoint-5"])).training.resume == (
        "/ckpt/checkpoint-5"
    )


def test_print_config(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--config", str(CONFIGS / "demo_cpu.yaml"), "--max_steps", "5", "--print_config"])
        == 0
    )
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["training"]["max_steps"] == 5
    assert printed["model"]["path"] == "smollm2"


def test_seed_is_the_random_seed_and_recipe_picks_a_recipe() -> None:
    argv = ["--seed", "42", "--recipe", "math-lora", "--model_path", "/models/m"]
    args = parse_args(argv)
    assert (args.seed, args.recipe) == (42, "math-lora")
    recipe = resolve_recipe(args, argv)
    assert recipe.name == "math-lora" and recipe.recognition == "chosen with --recipe math-lora"
    assert recipe.config.training.seed == 42
    assert recipe.sources["training.seed"] == "flag --seed"
    assert recipe.config.lora.r == 16 and recipe.config.reward.extraction == "boxed"
    # Without --seed the run keeps the default seed.
    assert resolve_config(parse_args(["--recipe", "none"])).training.seed == 42


@pytest.mark.parametrize(
    ("argv", "new"),
    [
        (["--seed", "001"], "--recipe math-lora"),
        (["--seed=002"], "--recipe reasoning-format"),
        (["--seed", "004", "--max_steps", "1"], "--recipe tinyv-rubric"),
        (["--seed", "none"], "--recipe none"),
    ],
)
def test_the_former_seed_spelling_fails_in_one_line_naming_the_new_flag(
    argv: list[str], new: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("grpo-train: error: ")
    assert new in err and "random seed" in err


def test_a_seed_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(SystemExit):
        parse_args(["--seed", "abc"])


def test_help_fits_a_screen_without_near_duplicate_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert len(text.splitlines()) <= 40
    assert "--recipe" in text and "--seed N" in text and "--help-recipe-flags" in text
    assert "seed 00" not in text and "seed document" not in text
    flags = set(re.findall(r"--[a-z][a-z_-]*", text))
    spellings = {flag.replace("-", "_").lstrip("_") for flag in flags}
    assert len(spellings) == len(flags), sorted(flags)
    for hidden in ("--learning-rate", "--use_vllm", "--model-size", "--hf-token", "--model "):
        assert hidden not in text


def test_the_recipe_flags_have_their_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help-recipe-flags"])
    text = capsys.readouterr().out
    for flag in ("--learning-rate", "--learning_rate", "--use_vllm", "--batch-size", "--hf-token"):
        assert flag in text
    assert "seed" not in text.lower()


def test_hidden_spellings_still_parse() -> None:
    args = parse_args(["--model", "/m", "--max-steps", "3", "--allow_unavailable"])
    assert (args.model_path, args.max_steps, args.allow_unavailable) == ("/m", 3, True)


def test_a_prompt_counted_batch_reaches_trl_in_completions() -> None:
    # reasoning-format's troubleshooting line: 2 prompts, each sampled 8 times.
    argv = ["--batch-size", "2", "--use-lora", "--dataset", "d.jsonl"]
    recipe = resolve_recipe(parse_args(argv), argv)
    config = recipe.config
    assert recipe.name == "reasoning-format"
    assert config.training.per_device_train_batch_size == 2
    assert config.training.batch_size_counts == "prompts"
    assert config.completions_per_device() == 16
    assert "converted for TRL" in explain(recipe)
