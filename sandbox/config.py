"""Sandbox configuration, usually read from the environment."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
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

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SandboxConfig:
        """Q_BIN, QHOME, QLIC, KDB_LICENSE_B64, KDB_K4LICENSE_B64 and VERIFIER_SANDBOX_*."""
        e = os.environ if env is None else env
        q_home = e.get("QHOME") or None
        kwargs: dict[str, object] = {
            "q_home": q_home,
            "q_bin": e.get("Q_BIN") or default_q_bin(q_home),
            "q_license_dir": e.get("QLIC") or None,
            "q_license_b64": e.get("KDB_LICENSE_B64") or None,
            "q_k4_license_b64": e.get("KDB_K4LICENSE_B64") or None,
        }
        prefix = "VERIFIER_SANDBOX_"
        if v := e.get(prefix + "ISOLATION"):
            kwargs["isolation"] = Isolation(v.lower())
        for name in ("workers", "recycle_after", "q_workspace_mb", "uid_base", "tmpfs_mb"):
            if v := e.get(prefix + name.upper()):
                kwargs[name] = int(v)
        if v := e.get(prefix + "PYTHON"):
            kwargs["python_bin"] = v
        if v := e.get(prefix + "BWRAP"):
            kwargs["bwrap_bin"] = v
        return cls(**kwargs)  # type: ignore[arg-type]
