"""A Python with pykx installed beside it, for the tests that load pykx's real q engine.

The sandbox never imports pykx: it finds the package's folder and loads the engine library
with ctypes (sandbox/q_engine.py, sandbox/q_embedded.py). So the venv gets pykx alone,
without its dependencies (pandas, numpy...), which nothing here imports. It is cached under
``.cache/pykx-venv`` and kept apart from the project's venv, where an installed pykx would
change every q reason the other tests read.

    python -m harness.pykx        # build it (seconds; one 14 MB wheel), print its python
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx

PYKX_VERSION = "4.2.0"
DEFAULT_VENV = Path(__file__).resolve().parent.parent / ".cache" / "pykx-venv"


class PykxUnavailable(RuntimeError):
    """pykx cannot be installed: the package index cannot be reached."""


def _marker(venv: Path) -> Path:
    return venv / f".pykx-{PYKX_VERSION}.ok"


def _pypi_reachable() -> bool:
    try:
        return httpx.head("https://pypi.org/simple/pykx/", timeout=10).status_code < 500
    except httpx.HTTPError:
        return False


def ensure_pykx_venv(path: Path = DEFAULT_VENV) -> Path:
    """Create ``path`` with pykx installed (once); return its python executable.

    Raises :class:`PykxUnavailable` when PyPI cannot be reached and nothing is installed, and
    RuntimeError, with pip's output, when the install fails.
    """
    python = path / "bin" / "python"
    if _marker(path).exists() and python.exists():
        return python
    if not _pypi_reachable():
        raise PykxUnavailable(f"PyPI is unreachable, cannot install pykx into {path}")
    started = time.monotonic()
    if path.exists():  # a half-built venv from an interrupted run: start over
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for command in (
        [sys.executable, "-m", "venv", str(path)],
        [str(python), "-m", "pip", "install", "-q", "--progress-bar", "off", "--no-deps",
         f"pykx=={PYKX_VERSION}"],
    ):  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            tail = (result.stdout + result.stderr)[-4000:]
            raise RuntimeError(f"{' '.join(command)} failed (rc={result.returncode}):\n{tail}")
    _marker(path).write_text(f"installed in {time.monotonic() - started:.0f}s\n")
    return python


if __name__ == "__main__":
    print(ensure_pykx_venv())
