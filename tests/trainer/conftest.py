from __future__ import annotations

from pathlib import Path

import pytest

from trainer.tiny_model import build_tiny_model


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer random Llama with a BPE tokenizer trained locally (no hub)."""
    return build_tiny_model(tmp_path_factory.mktemp("tiny-model"))
