"""The q engine the pykx package ships: found, chosen, mounted, licensed and explained.

Everything here runs without a licence. Most of it runs without pykx too, on a folder laid
out as pykx installs itself (tests/sandbox/pykx_layout.py); the tests of the real engine load
it in the sandbox from pykx installed for this Python, or else from a venv of its own that
harness/pykx.py builds from PyPI."""

from __future__ import annotations

import ast
import asyncio
import base64
import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from harness.pykx import PykxUnavailable, ensure_pykx_venv
from sandbox import Failure, Language, Limits, Sandbox, SandboxConfig, SandboxUnavailable, TestCase
from sandbox.bwrap import QLIC, QLIC_SRC
from sandbox.interpreter import PythonInfo, probe_python
from sandbox.q_embedded import load_command, q_flags
from sandbox.q_engine import (
    EMBEDDED_SOURCE,
    NO_Q,
    PykxInstall,
    QEngine,
    choose_q,
    embedded_argv,
    find_pykx,
)
from services.settings import Settings

from .conftest import needs_bwrap, q_runner
from .pykx_layout import PykxLayout, make_pykx_layout, make_venv

NOT_A_LICENCE = base64.b64encode(b"not a licence, but a licence file all the same").decode()
Q_VARIABLES = ("Q_BIN", "QHOME", "QLIC", "KDB_LICENSE_B64", "KDB_K4LICENSE_B64")


@pytest.fixture(scope="module")
def real_pykx() -> tuple[str, PykxInstall]:
    """A Python with the real pykx: this one where pykx is installed, else a venv of its own
    (harness/pykx.py; one wheel from PyPI, cached under .cache)."""
    found = find_pykx(sys.executable)
    if found is not None:
        return sys.executable, found
    try:
        python = str(ensure_pykx_venv())
    except PykxUnavailable as exc:
        pytest.skip(f"no pykx to load the real q engine from: {exc}")
    found = find_pykx(python)
    assert found is not None, f"pykx installed into {python}'s venv but not found there"
    return python, found


pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> PykxLayout:
    return make_pykx_layout(tmp_path_factory.mktemp("pykx-layout"))


def _config(python: str, **changes: object) -> SandboxConfig:
    """The sandbox's config with no q binary and only the licence given here."""
    return SandboxConfig.model_validate({"python": python, "workers": 1, "q_bin": None, **changes})


@pytest.fixture
def layout_sandbox(layout: PykxLayout) -> Iterator[Sandbox]:
    with Sandbox(_config(layout.python, KDB_K4LICENSE_B64=NOT_A_LICENCE)) as sb:
        yield sb


# ------------------------------------------------------------------ the setting


def test_engine_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Q_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert Settings().sandbox.q_engine is QEngine.AUTO
    monkeypatch.setenv("VERIFIER_SANDBOX_Q_ENGINE", "PYKX")
    assert Settings().sandbox.q_engine is QEngine.PYKX
    with pytest.raises(ValidationError, match="q_engine"):
        SandboxConfig.model_validate({"q_engine": "docker"})


# ------------------------------------------------------------------ finding pykx


def test_find_pykx_answers_what_the_python_would_import(layout: PykxLayout) -> None:
    here = importlib.util.find_spec("pykx")
    found = find_pykx(sys.executable)
    assert (found is None) == (here is None)
    if found is not None and here is not None and here.submodule_search_locations:
        assert found.package_dir == next(iter(here.submodule_search_locations))
    assert find_pykx("/nonexistent/python") is None
    assert find_pykx(make_venv(layout.package_dir.parent.parent / "plain")) is None
    # Found without being imported: this pykx raises ImportError when imported.
    assert find_pykx(layout.python) == PykxInstall(str(layout.package_dir), None)


# ------------------------------------------------------------------ choosing the engine


def test_without_q_or_pykx_q_is_unavailable_with_the_reason(tmp_path: Path) -> None:
    python = probe_python(sys.executable)
    assert _reason(QEngine.AUTO, None, None, python) == NO_Q
    assert _reason(QEngine.BINARY, None, None, python) == NO_Q
    reason = _reason(QEngine.PYKX, None, None, python)
    assert reason.startswith("VERIFIER_SANDBOX_Q_ENGINE=pykx, but pykx is not installed for ")
    assert sys.executable in reason and "pip install" in reason
    empty = choose_q(QEngine.AUTO, None, None, PykxInstall(str(tmp_path / "pykx"), "4.2.0"), python)
    with pytest.raises(SandboxUnavailable) as info:
        empty.verify()
    assert info.value.reason.startswith(
        f"pykx 4.2.0 at {tmp_path / 'pykx'} has no q engine for this machine"
    )
    with pytest.raises(SandboxUnavailable, match="is not an executable file"):
        choose_q(QEngine.AUTO, str(tmp_path / "q"), None, None, python).verify()


def _reason(
    engine: QEngine, q_bin: str | None, pykx: PykxInstall | None, python: PythonInfo
) -> str:
    with pytest.raises(SandboxUnavailable) as info:
        choose_q(engine, q_bin, None, pykx, python)
    return info.value.reason


def test_q_bin_wins_over_pykx_unless_pykx_is_asked_for(tmp_path: Path, layout: PykxLayout) -> None:
    q_bin = tmp_path / "l64" / "q"
    q_bin.parent.mkdir()
    q_bin.write_text("#!/bin/sh\n")
    q_bin.chmod(0o755)
    python = probe_python(layout.python)
    pykx = find_pykx(layout.python)
    auto = choose_q(QEngine.AUTO, str(q_bin), None, pykx, python)
    assert (auto.engine, auto.program, auto.home) == (QEngine.BINARY, str(q_bin), str(tmp_path))
    asked = choose_q(QEngine.PYKX, str(q_bin), None, pykx, python)
    assert (asked.engine, asked.program, asked.libq) == (
        QEngine.PYKX,
        python.executable,
        str(layout.libq),
    )
    # pykx's lib/ is q's home, as pykx itself starts q; the whole package is mounted.
    assert asked.home == str(layout.package_dir / "lib")
    assert str(layout.package_dir) in asked.mounts
    assert asked.argv(256) == [
        python.executable,
        "-I",
        "-S",
        "-c",
        EMBEDDED_SOURCE,
        str(layout.libq),
        asked.home,
        "256",
    ]
    assert _reason(QEngine.BINARY, None, pykx, python) == NO_Q


# ------------------------------------------------------------------ what runs in the sandbox


def test_the_runner_uses_only_the_standard_library_and_loads_the_script() -> None:
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(ast.parse(EMBEDDED_SOURCE))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported == {"ctypes", "os", "sys"}
    assert q_flags(512) == [b"q", b"-q", b"-w", b"512"]
    assert load_command() == b"\\l script.q"


def test_both_engines_run_the_same_script(tmp_path: Path, layout_sandbox: Sandbox) -> None:
    q_bin = tmp_path / "l64" / "q"
    q_bin.parent.mkdir()
    q_bin.write_text("#!/bin/sh\n")
    q_bin.chmod(0o755)
    test = TestCase(code="show solve 21", expected="expected-output-4242")
    proof = "5f0c9e0d2b7a4c1e8d3f6a9b0c1d2e3f"
    with Sandbox(SandboxConfig(q_bin=str(q_bin), workers=1)) as binary:
        by_binary = q_runner(binary).job("solve:{x*2}\nexit 0;", test, Limits(), proof)
    by_pykx = q_runner(layout_sandbox).job("solve:{x*2}\nexit 0;", test, Limits(), proof)
    assert (
        by_pykx["files"]
        == by_binary["files"]
        == {"script.q": f'solve:{{x*2}}\nshow solve 21\n-1 "{proof}";\nexit 0;\n'}
    )
    q = q_runner(layout_sandbox).setup()
    assert by_pykx["kind"] == "exec" and by_pykx["argv"] == q.argv(512)
    assert "expected-output-4242" not in json.dumps(by_pykx)


def test_the_runner_reports_an_engine_it_cannot_load(layout: PykxLayout) -> None:
    home = str(layout.package_dir / "lib")
    for libq, says in (
        (layout.libq, "file too short"),
        (layout.package_dir / "none.so", "No such"),
    ):
        done = subprocess.run(
            embedded_argv(sys.executable, str(libq), home, 64),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.startswith(f"sandbox: cannot load the q engine {libq}: ")
        assert says in done.stderr or "invalid ELF header" in done.stderr


# ------------------------------------------------------------------ isolation and licence


def test_licence_reaches_q_as_its_folder_and_never_as_a_variable(layout_sandbox: Sandbox) -> None:
    spec = layout_sandbox._spec(Language.Q)
    licence = q_runner(layout_sandbox)._license
    licence_dir = licence.path if licence else ""
    argv = list(spec.prefix)
    # The licence folder (decoded from base64, private) is bound for q workers only ...
    assert ["--ro-bind", licence_dir, QLIC_SRC] == argv[argv.index(licence_dir) - 1 :][:3]
    assert (spec.config.get("qlic_src"), spec.config.get("qlic")) == (QLIC_SRC, QLIC)
    assert QLIC_SRC not in layout_sandbox._spec(Language.PYTHON).prefix
    # ... and no environment of the sandbox, the worker or a job holds the licence.
    decoded = base64.b64decode(NOT_A_LICENCE).decode()
    job = q_runner(layout_sandbox).job("x:1", TestCase(code="show x"), Limits())
    assert job["kind"] == "exec" and job["env"] == {"QHOME": q_runner(layout_sandbox).setup().home}
    for text in (json.dumps(argv), json.dumps(spec.config), json.dumps(job)):
        assert NOT_A_LICENCE not in text and decoded not in text and "KDB_" not in text


@needs_bwrap
def test_the_engine_folder_is_mounted_read_only(
    layout: PykxLayout, layout_sandbox: Sandbox
) -> None:
    argv = list(layout_sandbox._spec(Language.Q).prefix)
    package = str(layout.package_dir)
    assert ["--ro-bind", package, package] == argv[argv.index(package) - 1 :][:3]
    # In the sandbox, the runner finds the engine (not "No such file"): a file that is no
    # library, so q cannot start and says so.
    outcome = asyncio.run(
        layout_sandbox.run_tests(Language.Q, "x:1", [TestCase(code="show x")], Limits())
    )[0]
    assert outcome.failure is Failure.RUNTIME_ERROR and outcome.exit_code == 1, outcome
    assert f"cannot load the q engine {layout.libq}" in outcome.detail
    assert "No such file" not in outcome.stderr
    q = layout_sandbox.status().q
    assert not q.available and q.reason is not None and str(layout.libq) in q.reason


@needs_bwrap
def test_pykx_without_a_licence_is_unavailable_with_the_reason(layout: PykxLayout) -> None:
    with Sandbox(_config(layout.python)) as sb:
        q = sb.status().q
        assert not q.available and q.reason is not None
        assert q.reason.startswith(f"pykx found ({layout.package_dir / 'lib'}), but no q licence")
        assert "KDB_LICENSE_B64" in q.reason
        with pytest.raises(SandboxUnavailable) as info:
            asyncio.run(sb.run_tests(Language.Q, "x:1", [TestCase(code="show x")], Limits()))
        assert info.value.reason == q.reason


# ------------------------------------------------------------------ the real engine


@needs_bwrap
def test_real_engine_without_a_licence_is_unavailable_with_the_reason(
    real_pykx: tuple[str, PykxInstall],
) -> None:
    python, pykx = real_pykx
    with Sandbox(_config(python)) as sb:
        q = sb.status().q
        assert not q.available and q.reason is not None
        assert q.reason.startswith(f"{pykx.label} found ({pykx.home}), but no q licence")


@needs_bwrap
@pytest.mark.parametrize(
    ("variable", "file"),
    [("KDB_K4LICENSE_B64", "k4.lic"), ("KDB_LICENSE_B64", "kc.lic"), ("QLIC", "kx.lic")],
)
def test_real_engine_reads_the_licence_in_the_sandbox(
    variable: str, file: str, tmp_path: Path, real_pykx: tuple[str, PykxInstall]
) -> None:
    """q itself, loaded from pykx in the sandbox, finds the licence where the sandbox put it
    and refuses it: the error is q's own, naming that file."""
    value = NOT_A_LICENCE
    if variable == "QLIC":  # a folder holding KDB-X's kx.lic
        (tmp_path / file).write_bytes(base64.b64decode(NOT_A_LICENCE))
        value = str(tmp_path)
    with Sandbox(_config(real_pykx[0], **{variable: value})) as sb:
        outcome = asyncio.run(
            sb.run_tests(Language.Q, "x:1", [TestCase(code="show x", expected="1")], Limits())
        )[0]
        assert outcome.failure is Failure.SANDBOX_ERROR, outcome
        assert f"license error: {file}" in outcome.stderr
        assert outcome.detail.startswith("q licence problem (")
        q = sb.status().q
        assert not q.available and q.reason is not None and f"license error: {file}" in q.reason
