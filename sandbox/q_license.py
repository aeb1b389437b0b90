"""Materialising the q licence for the sandboxed q process.

Sources, in order: a QLIC directory (k4.lic, kc.lic, or KDB-X's kx.lic); KDB_K4LICENSE_B64
(offline k4.lic, preferred); KDB_LICENSE_B64 (kc.lic). Base64 licences are decoded into a
private 0700 temp dir that is visible only to q workers (never to Python jobs) and only as
QLIC of the q process.
"""

from __future__ import annotations

import base64
import binascii
import os
import shutil
import tempfile
from dataclasses import dataclass

from .errors import SandboxUnavailable
from .q_errors import KC_LIC_NEEDS_NETWORK

LICENSE_FILES = ("k4.lic", "kc.lic", "kx.lic")


@dataclass(frozen=True)
class LicenseDir:
    path: str
    kind: str  # "k4.lic" | "kc.lic" | "kx.lic"
    owned: bool  # we created it (and must delete it)

    @property
    def warning(self) -> str | None:
        return KC_LIC_NEEDS_NETWORK if self.kind == "kc.lic" else None

    def cleanup(self) -> None:
        if self.owned:
            shutil.rmtree(self.path, ignore_errors=True)


def decode_license(value: str, env_name: str) -> bytes:
    try:
        data = base64.b64decode("".join(value.split()), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SandboxUnavailable(f"{env_name} is not valid base64: {exc}") from exc
    if not data:
        raise SandboxUnavailable(f"{env_name} decodes to an empty licence")
    return data


def prepare_license(license_dir: str | None, kc_b64: str | None, k4_b64: str | None) -> LicenseDir:
    """Find or create the licence directory for q; raise SandboxUnavailable if none."""
    if license_dir:
        present = [n for n in LICENSE_FILES if os.path.isfile(os.path.join(license_dir, n))]
        if not present:
            raise SandboxUnavailable(f"QLIC={license_dir} holds no k4.lic, kc.lic or kx.lic")
        return LicenseDir(license_dir, present[0], owned=False)
    if k4_b64 or kc_b64:
        # Prefer the offline k4.lic: kc.lic needs the licence daemon (network).
        name, value, env_name = (
            ("k4.lic", k4_b64, "KDB_K4LICENSE_B64")
            if k4_b64
            else ("kc.lic", kc_b64, "KDB_LICENSE_B64")
        )
        assert value is not None
        data = decode_license(value, env_name)
        path = tempfile.mkdtemp(prefix="qlic-")  # mkdtemp creates it 0700
        fd = os.open(os.path.join(path, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return LicenseDir(path, name, owned=True)
    raise SandboxUnavailable(
        "no q licence: set QLIC to a directory holding k4.lic/kc.lic, or KDB_K4LICENSE_B64 "
        "(offline k4.lic, recommended) or KDB_LICENSE_B64 (kc.lic; " + KC_LIC_NEEDS_NETWORK + ")"
    )
