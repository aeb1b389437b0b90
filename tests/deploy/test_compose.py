"""The container files, checked by parsing (no Docker engine is needed or assumed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


def test_verifier_service_builds_an_image_that_can_sandbox() -> None:
    verifier = _load(ROOT / "compose.yaml")["services"]["verifier"]
    dockerfile = ROOT / verifier["build"]["context"] / verifier["build"]["dockerfile"]
    text = dockerfile.read_text()
    assert "bubblewrap" in text and '".[service]"' in text
    assert "torch" not in text.replace("without torch", "").replace("no torch", "")
    assert "SYS_ADMIN" in verifier["cap_add"]
    assert {"seccomp=unconfined", "apparmor=unconfined"} <= set(verifier["security_opt"])
    assert "/ready" in " ".join(verifier["healthcheck"]["test"])
    assert verifier["deploy"]["resources"]["limits"]["memory"]


def test_every_compose_variable_is_documented_in_env_example() -> None:
    import re

    documented = {
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }
    for path in (ROOT / "compose.yaml", ROOT / "deploy" / "compose.q.yaml"):
        used = set(re.findall(r"\$\{([A-Z0-9_]+)", path.read_text()))
        assert used <= documented, (path.name, used - documented)


def test_q_override_mounts_read_only() -> None:
    verifier = _load(ROOT / "deploy" / "compose.q.yaml")["services"]["verifier"]
    assert all(volume.endswith(":ro") for volume in verifier["volumes"])
    assert {"QHOME", "QLIC"} <= set(verifier["environment"])
