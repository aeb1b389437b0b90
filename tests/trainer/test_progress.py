"""The progress bar's step, reward and accuracy, and the plot a run leaves at the end."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from transformers import TrainerControl, TrainerState, TrainingArguments

from trainer.progress import ProgressBar, plot_rewards, read_curves

METRICS = [
    {"step": 1, "loss": 0.0, "reward": -0.5, "verifier/accuracy": 0.25},
    {"step": 2, "loss": 0.1, "reward": 0.25, "verifier/accuracy": 0.5},
    {"step": 2, "train_runtime": 12.0},  # the end-of-training summary: no curve point
    {"step": 3, "reward": None, "verifier/accuracy": None},  # NaN written as null
]


def write_metrics(path: Path) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in METRICS))
    return path


def test_curves_are_the_logged_steps(tmp_path: Path) -> None:
    curves = read_curves(write_metrics(tmp_path / "metrics.jsonl"))
    assert curves == {"reward": [(1, -0.5), (2, 0.25)], "verifier/accuracy": [(1, 0.25), (2, 0.5)]}


def test_the_plot_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib comes with the [trainer] extra")
    out = plot_rewards(write_metrics(tmp_path / "metrics.jsonl"), tmp_path / "plot.png")
    assert out == tmp_path / "plot.png"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_reward_no_plot(tmp_path: Path) -> None:
    assert plot_rewards(tmp_path / "missing.jsonl", tmp_path / "plot.png") is None
    assert not (tmp_path / "plot.png").exists()


def test_the_bar_shows_steps_reward_accuracy_and_eta(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = TrainingArguments(output_dir=str(tmp_path), report_to="none", use_cpu=True)
    state, control = TrainerState(), TrainerControl()
    state.max_steps, state.global_step = 4, 0
    bar = ProgressBar()
    bar.on_train_begin(args, state, control)
    assert bar.bar is not None
    stream = io.StringIO()
    bar.bar.fp = stream  # what the bar writes, as a terminal would show it
    assert "sampling completions" in str(bar.bar)
    state.global_step = 1
    bar.on_step_end(args, state, control)
    bar.on_log(args, state, control, logs={"reward": -0.5, "verifier/accuracy": 0.25})
    line = str(bar.bar)
    assert "1/4" in line and "reward=-0.500" in line and "accuracy=0.250" in line
    assert "<" in line  # elapsed<remaining: the ETA
    bar.on_log(args, state, control, logs={"train_runtime": 3.0})  # no reward: unchanged
    assert "reward=-0.500" in str(bar.bar)
    bar.on_train_end(args, state, control)
    assert bar.bar is None
