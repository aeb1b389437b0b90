"""Recognising a checkpoint folder of ours, and the base model it was trained from."""

from __future__ import annotations

from pathlib import Path

from trainer.checkpoints import RUN_CONFIG_FILE, TRAINER_STATE_FILE, base_model_of_checkpoint


def checkpoint(run: Path, name: str = "checkpoint-10", config: str | None = None) -> Path:
    folder = run / name
    folder.mkdir(parents=True)
    (folder / TRAINER_STATE_FILE).write_text("{}")
    if config is not None:
        (run / RUN_CONFIG_FILE).write_text(config)
    return folder


def test_a_checkpoint_of_ours_names_its_base_model(tmp_path: Path) -> None:
    folder = checkpoint(tmp_path, config="model:\n  path: Qwen/Qwen2.5-1.5B-Instruct\n")
    assert base_model_of_checkpoint(str(folder)) == "Qwen/Qwen2.5-1.5B-Instruct"


def test_anything_else_is_not_a_checkpoint_of_ours(tmp_path: Path) -> None:
    config = "model:\n  path: base\n"
    # A hub id, a folder not named checkpoint-N, and a folder that does not exist.
    assert base_model_of_checkpoint("Qwen/Qwen2.5-1.5B-Instruct") is None
    assert base_model_of_checkpoint(str(checkpoint(tmp_path / "a", "final", config))) is None
    assert base_model_of_checkpoint(str(tmp_path / "checkpoint-3")) is None
    # No run config beside it (another trainer's checkpoint), or one without a model path.
    assert base_model_of_checkpoint(str(checkpoint(tmp_path / "b"))) is None
    assert base_model_of_checkpoint(str(checkpoint(tmp_path / "c", config="model: {}\n"))) is None
    # No trainer state in it.
    bare = checkpoint(tmp_path / "d", config=config)
    (bare / TRAINER_STATE_FILE).unlink()
    assert base_model_of_checkpoint(str(bare)) is None
