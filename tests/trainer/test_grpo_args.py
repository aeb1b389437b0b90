"""GRPOConfig is built with the argument names the installed transformers and TRL accept.

transformers renamed ``gradient_checkpointing`` to ``activation_checkpointing`` during 5.x;
the lowest-versions check (scripts/lowest-deps-check.sh) runs this file on transformers
5.0, the main suite on the newest release, so both spellings are exercised for real.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.config import TrainerConfig
from trainer.training import Hardware, grpo_args, resolve_precision


@pytest.mark.parametrize("checkpointing", [True, False])
def test_checkpointing_reaches_grpo_config(checkpointing: bool, tmp_path: Path) -> None:
    config = TrainerConfig.model_validate(
        {"training": {"output_dir": str(tmp_path), "gradient_checkpointing": checkpointing}}
    )
    precision = resolve_precision(config, Hardware(cuda=False, bf16_supported=False))
    args = grpo_args(config, precision)
    assert args.gradient_checkpointing is checkpointing
    assert getattr(args, "activation_checkpointing", checkpointing) is checkpointing
