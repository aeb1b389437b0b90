"""Pythons for the q engine tests: a real virtualenv without pykx, and one whose ``pykx`` is
a folder laid out as pykx installs itself (``pykx/__init__.py``, ``pykx/lib/<arch>/libq.so``)
outside the virtualenv, on a ``.pth`` line, with a file that is no library in place of the
engine. Neither needs pykx or a licence; the real pykx is used where installed."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from sandbox.q_engine import engine_library

NOT_A_LIBRARY = b"this is not the q engine\n"


@dataclass(frozen=True)
class PykxLayout:
    python: str  # the virtualenv's interpreter
    package_dir: Path  # .../elsewhere/pykx: outside the virtualenv's prefix
    libq: Path


def make_venv(root: Path) -> str:
    """A real virtualenv of this interpreter's base Python (no pip: quick); its python."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120
    )
    return str(root / "bin" / "python")


def _site_packages(venv: Path) -> Path:
    relative = Path(sysconfig.get_path("purelib")).relative_to(sysconfig.get_path("data"))
    return venv / relative


def make_pykx_layout(root: Path) -> PykxLayout:
    python = make_venv(root / "venv")
    elsewhere = root / "elsewhere"
    package = elsewhere / "pykx"
    folder, name = engine_library()
    libq = package / "lib" / folder / name
    libq.parent.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('a folder laid out as pykx')\n")
    libq.write_bytes(NOT_A_LIBRARY)
    (_site_packages(root / "venv") / "elsewhere.pth").write_text(f"{elsewhere}\n")
    return PykxLayout(python, package, libq)
