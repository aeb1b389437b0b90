"""Facts about the Python interpreter the sandbox runs (paths it needs mounted)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from .errors import SandboxUnavailable

_PROBE = "import json,sys;print(json.dumps([sys.prefix,sys.base_prefix,sys.version.split()[0]]))"


@dataclass(frozen=True)
class PythonInfo:
    executable: str  # absolute path, as configured (may be a venv symlink)
    prefix: str
    base_prefix: str
    version: str

    def mount_paths(self) -> list[str]:
        """Directories that must be visible (read-only) for the interpreter to start."""
        paths = {
            self.prefix,
            self.base_prefix,
            os.path.realpath(self.prefix),
            os.path.realpath(self.base_prefix),
            os.path.dirname(os.path.realpath(self.executable)),
        }
        return sorted(paths)


def run_probe(python_exe: str, code: str) -> Any:
    """What ``code`` prints as JSON when ``python_exe`` runs it isolated (``-I``, a bare
    PATH); OSError, SubprocessError or ValueError when it cannot run or prints no JSON."""
    out = subprocess.run(
        [python_exe, "-I", "-c", code],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    ).stdout
    return json.loads(out)


def probe_python(python_bin: str) -> PythonInfo:
    exe = python_bin if os.path.isabs(python_bin) else shutil.which(python_bin)
    if not exe or not os.access(exe, os.X_OK):
        raise SandboxUnavailable(f"python interpreter not found or not executable: {python_bin}")
    try:
        prefix, base_prefix, version = run_probe(exe, _PROBE)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise SandboxUnavailable(f"cannot run python interpreter {exe}: {exc}") from exc
    return PythonInfo(exe, prefix, base_prefix, version)
