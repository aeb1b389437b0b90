"""Configs with flat keys (such as ``lora_r``) load, warn once per key, and convert."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import yaml

from trainer.cli import main
from trainer.config import TrainerConfig, load_config
from trainer.flat_config import FLAT_KEYS, ConfigKeyError, FlatKeyWarning, mapping_table

DOCS = Path(__file__).resolve().parents[2] / "docs" / "trainer.md"

# math-lora's guide's configs/rl_grpo_config.yaml as its guide prints it (model section included).
SEED001_YAML = """\
model:
  path: "checkpoints/your_sft_checkpoint"
lora_r: 16
lora_alpha: 32
lora_dropout: 0.05
num_return_sequences: 2
reward_correct: 1.0
reward_wrong: -1.0
reward_no_answer: -0.5
kl_coef: 0.05
num_epochs: 3
per_device_train_batch_size: 4
gradient_accumulation_steps: 4
learning_rate: 5e-6
max_new_tokens: 2048
temperature: 0.7
top_p: 0.9
fp16: true
logging_steps: 10
"""

# q-code's guide's flags and its "Key training parameters" block.
SEED003_YAML = """\
model: /your/best/sft/1.5b/checkpoint
learning_rate: 2.0e-6
generation_temp: 0.8
eval_steps: 25
simple_eval_problems: 15
repeat_eval_problems: 4
num_processes: 7
gradient_accumulation_steps: 8
per_device_train_batch_size: 1
use_reasoning_format: false
use_wandb: true
wandb_name: 1.5b_non_reason
wandb_project: q-rl
max_tests_per_problem: 3
base_reward_weight: 1.0
perfect_reward_weight: 1.0
"""


def load_warned(path: Path) -> tuple[TrainerConfig, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        config = load_config(path)
    return config, [str(w.message) for w in caught if w.category is FlatKeyWarning]


def test_math_lora_yaml_loads_with_one_warning_per_key(tmp_path: Path) -> None:
    path = tmp_path / "rl_grpo_config.yaml"
    path.write_text(SEED001_YAML)
    config, messages = load_warned(path)
    flat = [key for key in yaml.safe_load(SEED001_YAML) if key != "model"]
    assert len(messages) == len(flat)
    for key, message in zip(flat, messages, strict=True):
        assert f"'{key}' read as '{FLAT_KEYS[key].target}'" in message
    assert config.model.path == "checkpoints/your_sft_checkpoint"
    assert (config.lora.r, config.lora.alpha, config.lora.dropout) == (16, 32, 0.05)
    assert (config.grpo.num_generations, config.grpo.beta) == (2, 0.05)
    assert (config.reward.correct, config.reward.wrong, config.reward.no_answer) == (1, -1, -0.5)
    assert config.training.num_train_epochs == 3
    assert config.training.learning_rate == 5e-6
    assert config.training.precision == "fp16"
    assert config.training.logging_steps == 10
    assert config.generation.max_completion_length == 2048
    assert (config.generation.temperature, config.generation.top_p) == (0.7, 0.9)


def test_q_code_keys_map_and_launcher_keys_are_skipped_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(SEED003_YAML)
    config, messages = load_warned(path)
    assert any("'model' read as 'model.path'" in m for m in messages)
    assert any("'num_processes'" in m and "accelerate launch" in m for m in messages)
    assert config.model.path == "/your/best/sft/1.5b/checkpoint"
    assert (config.training.learning_rate, config.generation.temperature) == (2e-6, 0.8)
    assert (config.eval.every_steps, config.eval.num_problems, config.eval.num_samples) == (
        25,
        15,
        4,
    )
    assert config.data.reasoning_format == "none"
    assert config.training.report_to == ["wandb"]
    assert (config.training.run_name, config.training.wandb_project) == ("1.5b_non_reason", "q-rl")
    assert (config.reward.max_tests, config.reward.base_weight) == (3, 1.0)


def test_dashed_flag_names_are_read_too(tmp_path: Path) -> None:
    path = tmp_path / "verl.yaml"
    path.write_text("max-steps: 500\nbatch-size: 4\nuse-lora: false\n")
    config, messages = load_warned(path)
    assert (config.training.max_steps, config.training.per_device_train_batch_size) == (500, 4)
    assert config.lora.enabled is False and len(messages) == 3


def test_unknown_flat_key_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("lora_r: 16\nlora_rank_typo: 8\n")
    with pytest.raises(ConfigKeyError, match="lora_rank_typo"), pytest.warns(FlatKeyWarning):
        load_config(path)


def test_a_setting_given_both_ways_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "both.yaml"
    path.write_text("lora:\n  r: 8\nlora_r: 16\n")
    with pytest.raises(ConfigKeyError, match=r"lora\.r"):
        load_config(path)


def test_sectioned_configs_load_without_warnings() -> None:
    shipped = Path(__file__).resolve().parents[2] / "trainer" / "configs" / "math.yaml"
    _, messages = load_warned(shipped)
    assert messages == []


def test_convert_config_writes_a_sectioned_file(tmp_path: Path) -> None:
    source, converted = tmp_path / "seed.yaml", tmp_path / "ours.yaml"
    source.write_text(SEED001_YAML)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FlatKeyWarning)
        assert main(["convert-config", str(source), "-o", str(converted)]) == 0
    raw = yaml.safe_load(converted.read_text())
    assert set(raw) <= set(TrainerConfig.model_fields)  # sections only
    assert raw["lora"] == {"r": 16, "alpha": 32, "dropout": 0.05}
    config, messages = load_warned(converted)
    assert messages == []  # the converted file is in today's format
    assert config == load_warned(source)[0]


def test_convert_config_refuses_an_invalid_result(tmp_path: Path) -> None:
    source = tmp_path / "seed.yaml"
    source.write_text("num_return_sequences: 1\n")  # GRPO needs a group of at least 2
    with pytest.raises(ValueError, match="num_generations"), pytest.warns(FlatKeyWarning):
        main(["convert-config", str(source)])


def test_docs_carry_the_mapping_table() -> None:
    assert mapping_table() in DOCS.read_text(encoding="utf-8")
