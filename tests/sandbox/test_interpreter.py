"""Facts about the Python interpreter the sandbox runs: what must be mounted for it."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from sandbox import SandboxUnavailable
from sandbox.interpreter import probe_python


def test_probing_this_interpreter_gives_its_prefixes_and_version() -> None:
    info = probe_python(sys.executable)
    assert info.prefix == sys.prefix and info.base_prefix == sys.base_prefix
    assert info.version == sys.version.split()[0]
    paths = info.mount_paths()
    assert sys.prefix in paths and os.path.realpath(sys.base_prefix) in paths
    assert os.path.dirname(os.path.realpath(sys.executable)) in paths
    assert paths == sorted(set(paths))


def test_a_name_on_path_is_resolved_to_its_file() -> None:
    found = shutil.which("python3")
    if found is None:
        pytest.skip("no python3 on PATH")
    assert probe_python("python3").executable == found


@pytest.mark.parametrize("python", ["/nonexistent/python3", "no-such-python-here"])
def test_a_missing_interpreter_makes_the_sandbox_unavailable(python: str) -> None:
    with pytest.raises(SandboxUnavailable, match="not found or not executable"):
        probe_python(python)


def test_an_executable_that_is_not_python_makes_it_unavailable(tmp_path: Path) -> None:
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\necho not json\n")
    fake.chmod(0o755)
    with pytest.raises(SandboxUnavailable, match="cannot run python interpreter"):
        probe_python(str(fake))
