from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from trainer.cli import main, parse_args, resolve_config
from trainer.config import TrainerConfig, load_config

CONFIGS = Path(__file__).resolve().parents[2] / "trainer" / "configs"


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_configs_load(path: Path) -> None:
    config = load_config(path)
    assert config.training.output_dir


def test_math_config_has_the_seed_defaults() -> None:
    config = load_config(CONFIGS / "math.yaml")
    assert (config.lora.r, config.lora.alpha, config.lora.dropout) == (16, 32, 0.05)
    assert config.grpo.beta == 0.05
    assert config.grpo.num_generations == 8
    assert config.training.learning_rate == 5e-6
    assert config.training.per_device_train_batch_size == 4
    assert config.training.gradient_accumulation_steps == 4
    assert config.training.num_train_epochs == 3
    assert (config.generation.temperature, config.generation.top_p) == (0.7, 0.9)
    assert (config.reward.correct, config.reward.wrong, config.reward.no_answer) == (1, -1, -0.5)


def test_defaults_without_a_file_match_the_seed() -> None:
    config = load_config(None)
    assert config.grpo.beta == 0.05 and config.lora.r == 16 and config.reward.mode == "rule"


def test_q_and_tinyv_configs() -> None:
    q = load_config(CONFIGS / "q_code.yaml")
    assert (q.reward.task, q.reward.language, q.reward.max_tests) == ("code", "q", 5)
    tinyv = load_config(CONFIGS / "tinyv_addon.yaml")
    assert tinyv.reward.mode == "addon"
    assert tinyv.service.url == ["http://verifier-0:8000", "http://verifier-1:8000"]
    assert tinyv.reward.options()["mode"] == "addon"
    parity = load_config(CONFIGS / "tinyv_parity.yaml").reward.options()
    assert (parity["mode"], parity["correct"], parity["wrong"], parity["no_answer"]) == (
        "addon", 1.0, 0.0, 0.0
    )


def test_cli_overrides_win_over_yaml() -> None:
    args = parse_args([
        "--config", str(CONFIGS / "math.yaml"), "--model_path", "/models/m",
        "--dataset", "d.parquet", "--service_url", "http://a:1,http://b:2/",
        "--output_dir", "/tmp/o", "--max_samples", "7", "--max_steps", "9", "--resume",
    ])
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
    args = parse_args(["--config", str(CONFIGS / "math.yaml"), "--mode", "mixed",
                       "--verifier_weight", "0.3"])
    config = resolve_config(args)
    assert (config.reward.mode, config.reward.verifier_weight) == ("mixed", 0.3)
    with pytest.raises(SystemExit):
        parse_args(["--mode", "oracle"])


def test_resume_takes_a_path() -> None:
    assert resolve_config(parse_args(["--resume", "/ckpt/checkpoint-5"])).training.resume == (
        "/ckpt/checkpoint-5"
    )


def test_misspelt_key_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("grpo:\n  betta: 0.1\n")
    with pytest.raises(ValidationError, match="betta"):
        load_config(path)


def test_invalid_value_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("grpo:\n  num_generations: 1\n")
    with pytest.raises(ValidationError, match="num_generations"):
        load_config(path)


def test_vllm_server_mode_needs_a_url() -> None:
    with pytest.raises(ValidationError, match="vllm_server_base_url"):
        TrainerConfig.model_validate({"generation": {"use_vllm": True, "vllm_mode": "server"}})
    ok = TrainerConfig.model_validate({"generation": {"use_vllm": True, "vllm_mode": "colocate"}})
    assert ok.generation.vllm_mode == "colocate"


def test_auto_service() -> None:
    assert load_config(CONFIGS / "demo_cpu.yaml").service.auto
    assert not load_config(CONFIGS / "math.yaml").service.auto


def test_print_config(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(CONFIGS / "demo_cpu.yaml"), "--max_steps", "5",
                 "--print_config"]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["training"]["max_steps"] == 5
    assert printed["model"]["path"] == "smollm2"


@pytest.mark.parametrize("name", ["multi_gpu.yaml", "deepspeed_zero3.yaml"])
def test_accelerate_configs_parse(name: str) -> None:
    from accelerate.commands.config.config_args import load_config_from_file

    config = load_config_from_file(str(CONFIGS / "accelerate" / name))
    assert config.num_processes == 8
    if name.startswith("deepspeed"):
        assert config.deepspeed_config["zero_stage"] == 3
