"""The sandbox's settings: the ``sandbox`` section of the service's settings
(``VERIFIER_SANDBOX_<NAME>``, and q's own variables), and the config :class:`Sandbox` takes
as it is."""

from __future__ import annotations

import os
import sys
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationInfo, field_validator

from .models import Isolation
from .q_engine import QEngine


def _default_workers() -> int:
    return os.cpu_count() or 1


def _shown(text: str) -> dict[str, Any]:
    """What the settings reference shows as the default of a field whose default is
    computed on the machine that runs it (services.reference_docs.SHOWN_DEFAULT; the
    sandbox imports nothing of the service)."""
    return {"shown_default": text}


def default_q_bin(q_home: str | None) -> str | None:
    """``$QHOME/<arch>/q`` if it exists (the layout of the kdb+ distribution)."""
    if not q_home:
        return None
    for arch in ("l64", "l64arm", "l32", "m64"):
        candidate = os.path.join(q_home, arch, "q")
        if os.path.isfile(candidate):
            return candidate
    return None


class SandboxConfig(BaseModel):
    """The code sandbox: ``VERIFIER_SANDBOX_<NAME>``, and q's own variables.

    A field whose ``validation_alias`` is set is read from that variable (q's names); in
    code it is set by its field name."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    isolation: Isolation = Field(
        Isolation.BWRAP,
        description="bwrap (bubblewrap namespaces) or none (rlimits and timeouts only: an "
        "explicit opt-in where bubblewrap cannot run).",
    )
    workers: int = Field(
        default_factory=_default_workers,
        gt=0,
        description="Warm sandbox worker processes.",
        json_schema_extra=_shown("CPU count"),
    )
    recycle_after: int = Field(500, gt=0, description="Jobs a worker runs before it is replaced.")
    python: str = Field(
        default_factory=lambda: sys.executable or "python3",
        min_length=1,
        description="Python interpreter that runs Python items.",
        json_schema_extra=_shown("the service's Python"),
    )
    bwrap: str = Field("bwrap", min_length=1, description="The bubblewrap binary.")
    # Workers of a root service drop to their own uid, so RLIMIT_NPROC applies and counts
    # only that worker's processes.
    uid_base: int = Field(
        60000,
        gt=0,
        description="When the service runs as root, worker i runs as uid/gid uid_base + i.",
    )
    tmpfs_mb: int = Field(64, gt=0, description="Size of each run's private /tmp.")
    q_workspace_mb: int = Field(512, gt=0, description="q's workspace cap (q -w).")
    q_engine: QEngine = Field(
        QEngine.AUTO,
        description="Which q runs q items: binary (Q_BIN), pykx (the q engine the pykx "
        "package ships, run by the sandbox's Python), or auto (Q_BIN where set, else pykx "
        "where installed for the sandbox's Python).",
    )
    q_home: str | None = Field(None, validation_alias="QHOME", description="The q installation.")
    q_bin: str | None = Field(
        None,
        validation_alias="Q_BIN",
        validate_default=True,
        description="The q binary; unset: `$QHOME/<arch>/q` where it exists.",
    )
    q_license_dir: str | None = Field(
        None,
        validation_alias="QLIC",
        description="Folder holding the licence (k4.lic, kc.lic or KDB-X's kx.lic).",
    )
    q_license_b64: SecretStr | None = Field(
        None,
        validation_alias="KDB_LICENSE_B64",
        description="kc.lic, base64-encoded (needs network to its licence daemon).",
    )
    q_k4_license_b64: SecretStr | None = Field(
        None,
        validation_alias="KDB_K4LICENSE_B64",
        description="k4.lic, base64-encoded (offline; preferred).",
    )

    @field_validator("isolation", "q_engine", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("q_bin")
    @classmethod
    def _q_bin_from_q_home(cls, value: str | None, info: ValidationInfo) -> str | None:
        return value or default_q_bin(info.data.get("q_home"))
