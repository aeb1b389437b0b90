"""The Dockerfiles (read, not built: no Docker engine here) and the verifier entrypoint."""

from __future__ import annotations

import os
import subprocess

from harness.compose_files import ROOT

ENTRYPOINT = ROOT / "deploy" / "verifier-entrypoint.sh"


def test_trainer_image_installs_cuda_torch_and_the_trainer_extra() -> None:
    text = (ROOT / "deploy" / "trainer.Dockerfile").read_text()
    assert "download.pytorch.org/whl/cu" in text
    assert "torch.version.cuda" in text  # the build fails on a CPU-only wheel
    assert '".[trainer]"' in text
    # grpo-train imports services.launcher: the package must be in the image.
    assert "COPY services services" in text
    assert "grpo-train" in text


def test_verifier_image_runs_through_the_entrypoint() -> None:
    text = (ROOT / "deploy" / "verifier.Dockerfile").read_text()
    assert "COPY deploy/verifier-entrypoint.sh /usr/local/bin/verifier-entrypoint" in text
    assert 'ENTRYPOINT ["/usr/local/bin/verifier-entrypoint"]' in text
    assert os.access(ENTRYPOINT, os.X_OK)


def test_entrypoint_drops_blank_settings_and_keeps_the_rest() -> None:
    env = {
        "PATH": os.environ["PATH"],
        "VERIFIER_API_KEY": "",
        "VERIFIER_LLM_API_KEY": "",
        "KDB_K4LICENSE_B64": "",
        "QLIC": "",
        "VERIFIER_MODE": "rule",
        "VERIFIER_LLM_URL": "http://rubric:8000",
        "UNRELATED": "",
    }
    run = subprocess.run(
        [str(ENTRYPOINT), "env"], env=env, capture_output=True, text=True, timeout=30, check=True
    )
    seen = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    assert seen["VERIFIER_MODE"] == "rule"
    assert seen["VERIFIER_LLM_URL"] == "http://rubric:8000"
    assert seen["UNRELATED"] == ""
    for blank in ("VERIFIER_API_KEY", "VERIFIER_LLM_API_KEY", "KDB_K4LICENSE_B64", "QLIC"):
        assert blank not in seen


def test_every_base_image_is_a_build_argument() -> None:
    """A FROM naming an image makes builds reach for a registry; machines without one pass
    local images as build arguments instead (docs/deployment.md)."""
    for dockerfile in sorted((ROOT / "deploy").glob("*.Dockerfile")):
        lines = dockerfile.read_text().splitlines()
        for line in (line for line in lines if line.startswith("FROM ")):
            image = line.split()[1]
            assert image.startswith("${") or image == "scratch", (dockerfile.name, line)
        assert "ARG BASE=python:3.11-slim" in lines, dockerfile.name
        assert "ENV VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH" in lines, dockerfile.name
