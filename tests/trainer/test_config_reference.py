from __future__ import annotations

from pathlib import Path

from trainer.config_reference import config_reference

DOCS = Path(__file__).resolve().parents[2] / "docs" / "trainer.md"


def test_docs_carry_the_current_config_reference() -> None:
    # Regenerate with: python -m trainer.config_reference --write docs/trainer.md
    assert config_reference() in DOCS.read_text(encoding="utf-8")


def test_reference_lists_every_field() -> None:
    text = config_reference()
    for field in ("num_generations", "beta", "max_batch", "vllm_mode", "format_weight"):
        assert f"`{field}`" in text
