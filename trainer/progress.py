"""What a run shows while it trains, and the plot it leaves.

:class:`ProgressBar` is a progress bar over the optimiser steps with the last step's mean
reward and accuracy and an ETA (tqdm, on the main process). :func:`plot_rewards` draws
the reward and accuracy of every logged step from ``metrics.jsonl`` into a PNG at the end
of a run (matplotlib, part of the ``[trainer]`` extra).
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm  # type: ignore[import-untyped]
from transformers import TrainerCallback, TrainerControl, TrainerState, TrainingArguments

log = logging.getLogger(__name__)

PLOT_FILE = "reward_accuracy.png"
REWARD_KEY = "reward"
ACCURACY_KEY = "verifier/accuracy"


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


class ProgressBar(TrainerCallback):
    """``step 3/10 [02:10<05:04, reward=-0.31, accuracy=0.25]``: steps, ETA, last step's means.

    Before the first step ends the bar says what the step is doing (sampling completions
    and scoring them), so a slow first step on a CPU is not silence.
    """

    def __init__(self) -> None:
        self.bar: Any = None  # a tqdm bar on the main process
        self.shown = ""  # the last logged step's reward and accuracy

    def on_train_begin(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        if not state.is_world_process_zero:
            return
        self.bar = tqdm(
            total=state.max_steps,
            initial=state.global_step,
            desc="training",
            unit="step",
            dynamic_ncols=True,
        )
        self.bar.set_postfix_str("step 1: sampling completions, then scoring them")

    def on_step_end(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(self.shown, refresh=False)  # the last logged step's
            self.bar.update(state.global_step - self.bar.n)

    def on_log(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        logs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if self.bar is None or not logs:
            return
        shown = {
            name: value
            for name, key in (("reward", REWARD_KEY), ("accuracy", ACCURACY_KEY))
            if (value := _number(logs.get(key))) is not None
        }
        if shown:
            self.shown = ", ".join(f"{k}={v:.3f}" for k, v in shown.items())
            self.bar.set_postfix_str(self.shown, refresh=True)

    def on_train_end(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def read_curves(metrics: Path) -> dict[str, list[tuple[int, float]]]:
    """(step, value) of the reward and the accuracy of each training step in ``metrics``."""
    curves: dict[str, list[tuple[int, float]]] = {REWARD_KEY: [], ACCURACY_KEY: []}
    if not metrics.exists():
        return curves
    for line in metrics.read_text(encoding="utf-8").splitlines():
        record = json.loads(line) if line.strip() else {}
        for key, points in curves.items():
            value = _number(record.get(key))
            if value is not None and isinstance(record.get("step"), int):
                points.append((record["step"], value))
    return curves


def plot_rewards(metrics: Path, output: Path) -> Path | None:
    """Draw the mean reward and accuracy per step into ``output`` (PNG); None, with the
    reason logged, when there is nothing to draw or matplotlib is not installed."""
    curves = read_curves(metrics)
    if not curves[REWARD_KEY]:
        log.info("no step logged a reward: no plot")
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        log.warning("matplotlib is not installed: no reward plot (pip install matplotlib)")
        return None
    figure, reward_axis = plt.subplots(figsize=(7, 4))
    steps, rewards = zip(*curves[REWARD_KEY], strict=True)
    reward_axis.plot(steps, rewards, marker="o", color="tab:blue", label="mean reward")
    reward_axis.set_xlabel("step")
    reward_axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    reward_axis.set_ylabel("mean reward", color="tab:blue")
    if curves[ACCURACY_KEY]:
        accuracy_axis = reward_axis.twinx()
        steps, accuracies = zip(*curves[ACCURACY_KEY], strict=True)
        accuracy_axis.plot(steps, accuracies, marker="s", color="tab:green", label="accuracy")
        accuracy_axis.set_ylabel("accuracy (share correct)", color="tab:green")
        accuracy_axis.set_ylim(-0.05, 1.05)
    reward_axis.set_title("GRPO: reward and accuracy per step")
    reward_axis.grid(alpha=0.3)
    figure.tight_layout()
    output.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(output, dpi=100)
    plt.close(figure)
    return output
