"""grpo-train's command line: the documented overrides over the YAML, and --print_config."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from trainer.cli import main, parse_args, resolve_config

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
