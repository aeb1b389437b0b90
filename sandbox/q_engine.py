"""Which q runs q items: a q binary (``Q_BIN``), or the q engine the ``pykx`` package ships
(KDB-X: ``pykx/lib/l64/libq.so``, no ``q`` executable).

The pykx engine is driven by ``sandbox/q_embedded.py``, a stdlib-only program the sandbox's
own Python runs inside the sandbox: it loads ``libq.so`` and evaluates the test's script.
pykx's Python modules are never imported (their import takes seconds of CPU, would come out
of every test's CPU budget, and starts a second process to check the licence)."""

from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from . import q_embedded
from .errors import SandboxUnavailable
from .interpreter import PythonInfo, run_probe
from .q_script import q_argv

NO_Q = "Q_BIN not set: no licensed q on this machine"
PYKX_INSTALL = "pip install 'reward-verifier[q]' (or: pip install pykx)"
EMBEDDED_SOURCE = Path(q_embedded.__file__).read_text(encoding="utf-8")

# Finds pykx without importing it (its import starts q and checks the licence).
_PROBE = (
    "import importlib.util as u,importlib.metadata as m,json\n"
    "s=u.find_spec('pykx')\n"
    "d=list(s.submodule_search_locations or []) if s else []\n"
    "v=None\n"
    "try:\n v=m.version('pykx')\n"
    "except Exception:\n pass\n"
    "print(json.dumps([d[0] if d else None,v]))"
)


class QEngine(StrEnum):
    """``VERIFIER_SANDBOX_Q_ENGINE``."""

    AUTO = "auto"  # Q_BIN (or $QHOME/<arch>/q) where set, else pykx where installed
    BINARY = "binary"
    PYKX = "pykx"


@dataclass(frozen=True)
class PykxInstall:
    """A pykx package: where its q engine and q's home (``lib/``) are."""

    package_dir: str
    version: str | None

    @property
    def home(self) -> str:
        """pykx's ``lib/`` folder: what pykx passes to q as QHOME."""
        return os.path.join(self.package_dir, "lib")

    @property
    def libq(self) -> str:
        return os.path.join(self.home, *engine_library())

    @property
    def label(self) -> str:
        return f"pykx {self.version}" if self.version else "pykx"


def engine_library() -> tuple[str, str]:
    """(folder, file) of the q engine under pykx's ``lib/`` on this machine, the names
    pykx's own loader uses."""
    machine = platform.machine().lower()
    arm = "arm" in machine or "aarch64" in machine
    if platform.system() == "Darwin":
        return ("m64arm" if arm else "m64", "libq.dylib")
    return ("l64arm" if arm else "l64", "libq.so")


def find_pykx(python_exe: str) -> PykxInstall | None:
    """The pykx package that ``python_exe`` would import, or None."""
    try:
        package_dir, version = run_probe(python_exe, _PROBE)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if not package_dir:
        return None
    return PykxInstall(str(package_dir), str(version) if version else None)


@dataclass(frozen=True)
class QSetup:
    """How this sandbox runs q: the command of one test, q's home and what to mount."""

    engine: QEngine  # BINARY or PYKX
    home: str  # QHOME
    mounts: tuple[str, ...]  # read-only in the sandbox
    program: str  # the q binary, or the Python that runs q_embedded.py
    libq: str | None = None  # PYKX: the engine library
    label: str = ""  # PYKX: "pykx 4.2.0"

    def verify(self) -> None:
        """SandboxUnavailable unless the q binary or the engine library is there."""
        if self.engine is QEngine.BINARY:
            if not (os.path.isfile(self.program) and os.access(self.program, os.X_OK)):
                raise SandboxUnavailable(f"Q_BIN={self.program} is not an executable file")
        elif self.libq is None or not os.path.isfile(self.libq):
            raise SandboxUnavailable(
                f"{self.label} at {os.path.dirname(self.home)} has no q engine for this "
                f"machine ({self.libq} is missing)"
            )

    def argv(self, workspace_mb: int) -> list[str]:
        if self.engine is QEngine.BINARY:
            return q_argv(self.program, workspace_mb)
        assert self.libq is not None
        return embedded_argv(self.program, self.libq, self.home, workspace_mb)


def embedded_argv(python_exe: str, libq: str, home: str, workspace_mb: int) -> list[str]:
    """The pykx engine's command for one test: the sandbox's Python, isolated (``-I``) and
    without ``site`` (``-S``: nothing but the standard library), running q_embedded.py."""
    return [
        python_exe,
        "-I",
        "-S",
        "-c",
        EMBEDDED_SOURCE,
        libq,
        home,
        str(workspace_mb),
    ]


def binary_setup(q_bin: str | None, q_home: str | None) -> QSetup:
    if not q_bin:
        raise SandboxUnavailable(NO_Q)
    home = q_home or os.path.dirname(os.path.dirname(os.path.realpath(q_bin)))
    mounts = (
        home,
        os.path.dirname(os.path.realpath(q_bin)),
        os.path.dirname(os.path.abspath(q_bin)),
    )
    return QSetup(QEngine.BINARY, home, mounts, q_bin)


def pykx_setup(pykx: PykxInstall, python: PythonInfo) -> QSetup:
    home = pykx.home
    # The whole package, read-only: the engine, and the q files next to it. Usually inside
    # the Python prefix, which is mounted anyway; pykx installed elsewhere (--target, a user
    # site) is mounted here.
    mounts = (pykx.package_dir, os.path.realpath(pykx.package_dir))
    return QSetup(QEngine.PYKX, home, mounts, python.executable, pykx.libq, pykx.label)


def choose_q(
    engine: QEngine,
    q_bin: str | None,
    q_home: str | None,
    pykx: PykxInstall | None,
    python: PythonInfo,
) -> QSetup:
    """The q this sandbox runs, or SandboxUnavailable with the reason there is none
    (:meth:`QSetup.verify` checks that its files are there). ``pykx``: what
    :func:`find_pykx` found for the sandbox's Python."""
    if engine is QEngine.BINARY or (engine is QEngine.AUTO and q_bin):
        return binary_setup(q_bin, q_home)
    if pykx is None:
        if engine is QEngine.PYKX:
            raise SandboxUnavailable(
                f"VERIFIER_SANDBOX_Q_ENGINE=pykx, but pykx is not installed for "
                f"{python.executable}: {PYKX_INSTALL}"
            )
        raise SandboxUnavailable(NO_Q)
    return pykx_setup(pykx, python)
