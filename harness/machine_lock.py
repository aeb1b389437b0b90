"""One holder at a time of a machine-wide resource, across processes (pytest-xdist workers):
an exclusive ``flock`` on a file in the temporary directory, released when the holder exits
the block or dies."""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def held(name: str) -> Iterator[None]:
    """Wait until no other process holds ``name``, then hold it for the block."""
    path = Path(tempfile.gettempdir()) / f"reward-verifier-{name}.lock"
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
