"""A run's records: config.yaml (the resolved config, reread as a config), training.log
and metrics.jsonl."""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import yaml
from transformers import TrainerControl, TrainerState, TrainingArguments

from services.contract.http_policy import HttpPolicy
from trainer.checkpoints import base_model_of_checkpoint
from trainer.config import TrainerConfig, load_config
from trainer.run_logs import (
    MetricsFileCallback,
    attach_training_log,
    detach_training_log,
    write_run_config,
)


def test_run_config_reads_back_without_the_api_key(tmp_path: Path) -> None:
    config = TrainerConfig.model_validate(
        {
            "model": {"path": "base/model"},
            "service": {"api_key": "secret", "retries": 2, "http": {"timeout_s": 9}},
        }
    )
    path = write_run_config(config, tmp_path)
    service = yaml.safe_load(path.read_text(encoding="utf-8"))["service"]
    assert "api_key" not in service
    assert "http" not in service and service["retries"] == 2  # the policy's keys: the section's
    again = load_config(path)
    assert again.service.api_key is None
    assert again.service.http == HttpPolicy(retries=2, timeout_s=9)
    assert again.model_dump(exclude={"service": {"api_key"}}) == config.model_dump(
        exclude={"service": {"api_key"}}
    )
    # A checkpoint of this run names the run's base model.
    checkpoint = tmp_path / "checkpoint-1"
    checkpoint.mkdir()
    (checkpoint / "trainer_state.json").write_text("{}")
    assert base_model_of_checkpoint(str(checkpoint)) == "base/model"


def test_metrics_file_and_training_log(tmp_path: Path) -> None:
    handler = attach_training_log(tmp_path)
    try:
        callback = MetricsFileCallback(tmp_path / "metrics.jsonl")
        state = TrainerState()
        state.global_step = 3
        args = TrainingArguments(output_dir=str(tmp_path), report_to=[])
        logs = {"loss": 0.5, "reward": math.nan, "verifier/unavailable_step": 1.0}
        callback.on_log(args, state, TrainerControl(), logs=logs)
        callback.on_log(args, state, TrainerControl(), logs={"train_runtime": 2.0})
    finally:
        detach_training_log(handler)
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert records[0] == {"step": 3, "loss": 0.5, "reward": None, "verifier/unavailable_step": 1}
    assert records[1] == {"step": 3, "train_runtime": 2.0}
    log_text = (tmp_path / "training.log").read_text()
    assert "step 3: REWARDS UNAVAILABLE: loss=0.5" in log_text
    assert "step 3: train_runtime=2" in log_text
    assert handler not in logging.getLogger("trainer").handlers
