"""q's licence, without a q binary: from base64 or a folder, private, and explained."""

from __future__ import annotations

import base64
import os
import stat

import pytest

from sandbox import SandboxUnavailable
from sandbox.q_license import prepare_license


def _mode(path: str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_k4_license_from_base64_is_private_and_preferred() -> None:
    k4, kc = b"K4-LICENCE-BYTES", b"KC-LICENCE-BYTES"
    lic = prepare_license(None, base64.b64encode(kc).decode(), base64.b64encode(k4).decode())
    try:
        assert lic.kind == "k4.lic" and lic.warning is None
        assert _mode(lic.path) == 0o700
        assert os.listdir(lic.path) == ["k4.lic"]
        with open(os.path.join(lic.path, "k4.lic"), "rb") as f:
            assert f.read() == k4
    finally:
        lic.cleanup()
    assert not os.path.exists(lic.path)


def test_kc_license_warns_about_network() -> None:
    lic = prepare_license(None, base64.b64encode(b"kc").decode(), None)
    try:
        assert lic.kind == "kc.lic"
        assert lic.warning is not None and "k4.lic" in lic.warning
    finally:
        lic.cleanup()


def test_license_errors_are_explained(tmp_path: os.PathLike[str]) -> None:
    with pytest.raises(SandboxUnavailable, match="not valid base64"):
        prepare_license(None, None, "not base64!!")
    with pytest.raises(SandboxUnavailable, match=r"no k4\.lic, kc\.lic or kx\.lic"):
        prepare_license(str(tmp_path), None, None)
    with pytest.raises(SandboxUnavailable, match=r"k4\.lic"):
        prepare_license(None, None, None)
    open(os.path.join(tmp_path, "k4.lic"), "wb").close()
    lic = prepare_license(str(tmp_path), None, None)
    assert (lic.path, lic.kind, lic.owned) == (str(tmp_path), "k4.lic", False)
    lic.cleanup()
    assert os.path.exists(lic.path)  # a user's QLIC dir is never deleted
