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


def test_rubric_service_serves_the_verifier_model_on_a_gpu() -> None:
    services = _load(ROOT / "compose.yaml")["services"]
    rubric, verifier = services["rubric"], services["verifier"]
    assert rubric["image"].startswith("vllm/vllm-openai")
    command = " ".join(rubric["command"])
    assert "--model ${VERIFIER_LLM_MODEL:-zhangchenxu/TinyV-1.5B}" in command
    devices = rubric["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["capabilities"] == ["gpu"] and devices[0]["driver"] == "nvidia"
    assert "/health" in " ".join(rubric["healthcheck"]["test"])
    assert rubric["environment"]["VLLM_API_KEY"] == "${VERIFIER_LLM_API_KEY:-}"
    assert "ports" not in rubric  # vLLM stays private to the compose network
    assert verifier["environment"]["VERIFIER_LLM_URL"] == "${VERIFIER_LLM_URL:-http://rubric:8000}"
    assert verifier["environment"]["VERIFIER_LLM_API_KEY"] == "${VERIFIER_LLM_API_KEY:-}"
