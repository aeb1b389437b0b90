"""Run records in ``output_dir``: ``config.yaml`` (the resolved config), ``training.log``
(human-readable) and ``metrics.jsonl``.

``metrics.jsonl`` gets one JSON object per logging step: everything TRL logs (loss,
reward, reward_std, kl, entropy, completion lengths, …) plus what the reward function
reported through ``log_metric`` (``verifier/*``: per-component means, accuracy, status
shares, seconds spent waiting for the service).
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from typing import Any

import yaml
from transformers import TrainerCallback, TrainerControl, TrainerState, TrainingArguments

from trainer.checkpoints import RUN_CONFIG_FILE as RUN_CONFIG_FILE
from trainer.config import TrainerConfig

log = logging.getLogger(__name__)
_LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def attach_training_log(output_dir: Path) -> logging.Handler:
    """Copy this process's log records (ours, TRL's, transformers') into training.log."""
    output_dir.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(output_dir / "training.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter(_LOG_FORMAT))
    handler.setLevel(logging.INFO)
    for name in ("trainer", "trl", "transformers"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
    # Ours at INFO; TRL's and transformers' stay at their own level (warnings), so the
    # console is not flooded with config dumps.
    logging.getLogger("trainer").setLevel(logging.INFO)
    return handler


def write_run_config(config: TrainerConfig, output_dir: Path) -> Path:
    """The resolved config as ``output_dir/config.yaml`` (without the API key): the run's
    record, and a file ``grpo-train --config`` accepts to run it again."""
    output_dir.mkdir(parents=True, exist_ok=True)
    path = output_dir / RUN_CONFIG_FILE
    values = config.model_dump(mode="json", exclude={"service": {"api_key"}})
    path.write_text(yaml.safe_dump(values, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def detach_training_log(handler: logging.Handler) -> None:
    for name in ("trainer", "trl", "transformers"):
        logging.getLogger(name).removeHandler(handler)
    handler.close()


def _plain(value: Any) -> Any:
    # NaN is not JSON: a metric with no valid values becomes null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class MetricsFileCallback(TrainerCallback):
    """Append every logged metrics dict to ``metrics.jsonl`` and a summary line to the log."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def on_log(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        logs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if not state.is_world_process_zero or not logs:
            return
        record = {"step": state.global_step, **{k: _plain(v) for k, v in logs.items()}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
        shown: dict[str, Any] = {
            k: logs[k]
            for k in (
                "loss",
                "reward",
                "kl",
                "verifier/accuracy",
                "verifier/seconds",
                "eval/pass@1",
                "eval/reward",
            )
            if k in logs
        }
        if logs.get("verifier/status_unavailable"):
            shown["verifier/status_unavailable"] = logs["verifier/status_unavailable"]
        if not shown:  # the end-of-training summary: runtime figures only
            shown = {k: v for k, v in logs.items() if k.startswith("train_")}
        line = ", ".join(
            f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in shown.items()
        )
        # A step whose rewards were mostly unavailable learned nothing: the line says so.
        if logs.get("verifier/unavailable_step"):
            log.warning("step %d: REWARDS UNAVAILABLE: %s", state.global_step, line)
        else:
            log.info("step %d: %s", state.global_step, line)

    def on_train_begin(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        log.info(
            "training: %d steps planned, starting at step %d", state.max_steps, state.global_step
        )

    def on_save(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        log.info("saved %s/checkpoint-%d", args.output_dir, state.global_step)
