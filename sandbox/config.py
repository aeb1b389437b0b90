"""Sandbox configuration (the service builds it from its settings' sandbox section)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from .models import Isolation


def _default_workers() -> int:
    return os.cpu_count() or 1


def default_q_bin(q_home: str | None) -> str | None:
    """``$QHOME/<arch>/q`` if it exists (the layout of the kdb+ distribution)."""
    if not q_home:
        return None
    for arch in ("l64", "l64arm", "l32", "m64"):
        candidate = os.path.join(q_home, arch, "q")
        if os.path.isfile(candidate):
            return candidate
    return None


@dataclass(frozen=True)
class SandboxConfig:
    isolation: Isolation = Isolation.BWRAP
    workers: int = field(default_factory=_default_workers)
    recycle_after: int = 500
    python_bin: str = sys.executable or "python3"
    q_bin: str | None = None
    q_home: str | None = None
    q_license_dir: str | None = None
    q_license_b64: str | None = None
    q_k4_license_b64: str | None = None
    q_workspace_mb: int = 512
    # Extensions (not in the original brief):
    bwrap_bin: str = "bwrap"
    # When the service runs as root, worker slot i runs as uid/gid ``uid_base + i`` so
    # RLIMIT_NPROC applies and counts only that worker's processes.
    uid_base: int = 60000
    tmpfs_mb: int = 64
