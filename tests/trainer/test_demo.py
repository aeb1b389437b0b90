"""The one-command CPU demo: SmolLM2-135M-Instruct, a service it starts itself, 2 steps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # 141 s on the shared 2-core machine (load 6); well under the 900 s cap
@pytest.mark.timeout(900)
def test_demo_cpu_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "trainer.cli",
            "--config",
            "trainer/configs/demo_cpu.yaml",
            "--output_dir",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=880,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    steps = [m for m in metrics if "reward" in m]
    assert [m["step"] for m in steps] == [1, 2]
    assert all(m["verifier/status_ok"] == 1.0 for m in steps)
    assert (out / "checkpoint-2" / "adapter_model.safetensors").exists()
    assert (out / "service.log").exists()  # the service it started for itself
