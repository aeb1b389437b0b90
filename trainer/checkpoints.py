"""Recognise a checkpoint folder written by this trainer, as math-lora's guide resumes one.

The math-lora guide resumes with ``--model_path results/…/checkpoint-1000``. Loading that
folder as a fresh model would stack a second LoRA adapter on the first and restart the step count
and the optimizer; TRL's ``resume_from_checkpoint`` restores all three. A checkpoint is
ours when it holds TRL's ``trainer_state.json`` and its run folder holds the run's
``config.yaml`` (written at start-up), which names the base model.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

RUN_CONFIG_FILE = "config.yaml"
TRAINER_STATE_FILE = "trainer_state.json"
_CHECKPOINT_NAME = re.compile(r"checkpoint-\d+")


def base_model_of_checkpoint(path: str) -> str | None:
    """The base model of the run that wrote checkpoint folder ``path``; None when ``path``
    is not a checkpoint of ours (a plain model folder, a hub id)."""
    folder = Path(path)
    if not _CHECKPOINT_NAME.fullmatch(folder.name) or not folder.is_dir():
        return None
    run_config = folder.parent / RUN_CONFIG_FILE
    if not (folder / TRAINER_STATE_FILE).is_file() or not run_config.is_file():
        return None
    loaded = yaml.safe_load(run_config.read_text(encoding="utf-8"))
    model = loaded.get("model") if isinstance(loaded, dict) else None
    base = model.get("path") if isinstance(model, dict) else None
    return str(base) if base else None
