"""q through the real service when q would come from pykx and no licence is configured: q
items are ``unavailable`` with the reason, and ``/ready`` says the same.

The sandbox's Python is a real virtualenv where pykx is a folder laid out as pykx installs
itself (tests/sandbox/pykx_layout.py), or one without pykx; no licence variable is set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from harness.service import running_service
from services.launcher import ServiceProcess, wait_until_ready
from tests.sandbox.conftest import needs_bwrap
from tests.sandbox.pykx_layout import PykxLayout, make_pykx_layout, make_venv

Q_VARIABLES = ("Q_BIN", "QHOME", "QLIC", "KDB_LICENSE_B64", "KDB_K4LICENSE_B64")
# Small, and without the exploit canaries, which q does not need: quicker to start.
SMALL = {
    "VERIFIER_MATH_WORKERS": "1",
    "VERIFIER_SANDBOX_WORKERS": "1",
    "VERIFIER_EXPLOIT_CANARY_INTERVAL_S": "0",
    "VERIFIER_REQUIRED_BACKENDS": "math,sandbox",
}
Q_ITEM = {
    "language": "q",
    "completion": "```q\nf:{x+1}\n```",
    "tests": [{"code": "show f 1;", "expected": "2"}],
}

pytestmark = [
    needs_bwrap,
    pytest.mark.timeout(300),
    pytest.mark.skipif(
        any(os.environ.get(name) for name in Q_VARIABLES),
        reason="a q binary or licence is configured here (" + ", ".join(Q_VARIABLES) + ")",
    ),
]


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> PykxLayout:
    return make_pykx_layout(tmp_path_factory.mktemp("pykx-layout"))


def _q_item(url: str) -> dict[str, Any]:
    response = httpx.post(f"{url}/score/code", json={"items": [Q_ITEM]}, timeout=120)
    response.raise_for_status()
    result: dict[str, Any] = response.json()["results"][0]
    return result


def test_pykx_without_a_licence(layout: PykxLayout) -> None:
    with running_service({**SMALL, "VERIFIER_SANDBOX_PYTHON": layout.python}) as url:
        ready = httpx.get(f"{url}/ready", timeout=60)
        q = ready.json()["backends"]["q"]
        result = _q_item(url)
    home = layout.package_dir / "lib"
    assert q["ok"] is False
    assert q["detail"].startswith(f"pykx found ({home}), but no q licence: set QLIC")
    assert "KDB_LICENSE_B64" in q["detail"]
    # q is not among the required backends (nor is it by default): the replica stays ready.
    assert ready.status_code == 200
    assert (result["status"], result["reward"]) == ("unavailable", None)
    assert q["detail"] in result["detail"]


@pytest.fixture(scope="module")
def q_required_without_pykx(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, str]]:
    """The service asked for pykx's q and to require q, with a Python that has no pykx."""
    python = make_venv(tmp_path_factory.mktemp("plain") / "venv")
    service = ServiceProcess(
        {
            **SMALL,
            "VERIFIER_SANDBOX_PYTHON": python,
            "VERIFIER_SANDBOX_Q_ENGINE": "pykx",
            "VERIFIER_REQUIRED_BACKENDS": "math,sandbox,q",
        }
    )
    try:
        service.start()
        assert service.process is not None
        wait_until_ready(service.process, f"{service.url}/health", 90, service.log_tail)
        yield service.url, python
    finally:
        service.stop()


def test_pykx_asked_for_but_not_installed(q_required_without_pykx: tuple[str, str]) -> None:
    url, python = q_required_without_pykx
    ready = httpx.get(f"{url}/ready", timeout=60)
    q = ready.json()["backends"]["q"]
    assert ready.status_code == 503 and ready.json()["ready"] is False
    assert q["ok"] is False
    assert q["detail"].startswith(
        f"VERIFIER_SANDBOX_Q_ENGINE=pykx, but pykx is not installed for {python}: pip install"
    )
    result = _q_item(url)
    assert (result["status"], result["reward"]) == ("unavailable", None)
    assert q["detail"] in result["detail"]
