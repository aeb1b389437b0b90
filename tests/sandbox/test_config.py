"""The sandbox's config: the settings section the sandbox takes as it is."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from sandbox import Isolation, SandboxConfig
from sandbox.config import default_q_bin


def _fake_q(home: Path, arch: str = "l64") -> Path:
    binary = home / arch / "q"
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\n")
    return binary


def test_defaults_run_python_items_with_this_interpreter_under_bwrap() -> None:
    config = SandboxConfig()
    assert config.isolation is Isolation.BWRAP
    assert config.python == (sys.executable or "python3")
    assert config.bwrap == "bwrap"
    assert config.workers == (os.cpu_count() or 1)
    assert config.q_bin is None


def test_q_bin_defaults_to_the_binary_under_qhome(tmp_path: Path) -> None:
    binary = _fake_q(tmp_path, "l64arm")
    assert default_q_bin(str(tmp_path)) == str(binary)
    assert SandboxConfig(q_home=str(tmp_path)).q_bin == str(binary)
    # An explicit Q_BIN wins; a QHOME without a binary gives none.
    assert SandboxConfig(q_home=str(tmp_path), q_bin="/opt/q").q_bin == "/opt/q"
    assert SandboxConfig(q_home=str(tmp_path / "empty")).q_bin is None


def test_q_settings_are_read_by_qs_own_variable_names(tmp_path: Path) -> None:
    config = SandboxConfig.model_validate(
        {"Q_BIN": "/opt/q", "QHOME": str(tmp_path), "QLIC": "/lic", "KDB_K4LICENSE_B64": "azQ="}
    )
    assert (config.q_bin, config.q_home, config.q_license_dir) == ("/opt/q", str(tmp_path), "/lic")
    assert config.q_k4_license_b64 is not None
    assert config.q_k4_license_b64.get_secret_value() == "azQ="
    assert "azQ=" not in repr(config)


def test_isolation_is_read_in_any_case_and_nothing_else_is_accepted() -> None:
    assert SandboxConfig.model_validate({"isolation": "NONE"}).isolation is Isolation.NONE
    with pytest.raises(ValidationError, match="isolation"):
        SandboxConfig.model_validate({"isolation": "docker"})


@pytest.mark.parametrize("field", ["workers", "recycle_after", "tmpfs_mb", "q_workspace_mb"])
def test_sizes_must_be_positive(field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        SandboxConfig.model_validate({field: 0})


def test_the_config_is_frozen() -> None:
    with pytest.raises(ValidationError):
        SandboxConfig().workers = 3  # type: ignore[misc]
