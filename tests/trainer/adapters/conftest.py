"""verl's runs, once per worker: its reward loop and every manager under faults, in one
process on one local Ray cluster (verl_runs.py), for test_verl_loop.py and
test_verl_managers.py."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from harness import machine_lock
from harness.compose_files import ROOT
from tests.trainer.adapters.verl_spec import ADAPTER, ROWS, VERL_PYTHON


@pytest.fixture(scope="session")
def verl_runs(service_url: str, tiny_model_dir: Path) -> dict[str, Any]:
    # The tests that use it are skipped where verl's venv is missing (their pytestmark).
    spec = {"service_url": service_url, "tokenizer": str(tiny_model_dir),
            "adapter": str(ADAPTER), "rows": ROWS}  # fmt: skip
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    # One Ray on the machine at a time: tests/deploy/test_ray.py starts one too.
    with machine_lock.held("ray"):
        done = subprocess.run(
            [str(VERL_PYTHON), "-m", "tests.trainer.adapters.verl_runs"], input=json.dumps(spec),
            capture_output=True, text=True, env=env, timeout=1500, cwd=ROOT,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr[-5000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))
