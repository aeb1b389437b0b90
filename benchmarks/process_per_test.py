"""The baseline harness the code benchmarks compare against: the Q paper's pattern.

Each test is its own ``python file.py`` subprocess (``subprocess.run(..., timeout=...)``),
with no isolation; it passes when the process exits 0 within the timeout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile


def run_file(source: str, timeout_s: float) -> bool:
    """Run ``source`` as a file in a fresh interpreter: True when it exits 0 in time."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(source)
    try:
        done = subprocess.run(
            [sys.executable, handle.name], capture_output=True, timeout=timeout_s, check=False
        )
        return done.returncode == 0
    except subprocess.TimeoutExpired:
        return False
    finally:
        os.unlink(handle.name)
