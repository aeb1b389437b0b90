"""The container files, checked by parsing (no Docker engine is needed or assumed)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.compose_files import (
    COMPOSE_FILES,
    InterpolationError,
    interpolate,
    load_compose,
    read_env_file,
)
from harness.gateway import TEMPLATE, compose_gateway_environment
from tests.deploy.schemas import compose_documents, compose_schema_errors

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
    assert {"SYS_ADMIN", "NET_ADMIN"} <= set(verifier["cap_add"])
    assert {"seccomp=unconfined", "apparmor=unconfined"} <= set(verifier["security_opt"])
    assert "/ready" in " ".join(verifier["healthcheck"]["test"])
    assert verifier["deploy"]["resources"]["limits"]["memory"]


def test_every_compose_variable_is_documented_in_env_example() -> None:
    documented = {
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }
    for path in COMPOSE_FILES:
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


def _resolved() -> dict[str, Any]:
    """compose.yaml as compose sees it after `cp .env.example .env`."""
    services: dict[str, Any] = load_compose(ROOT / "compose.yaml", read_env_file())["services"]
    return services


def test_compose_files_match_the_compose_specification() -> None:
    assert compose_schema_errors(compose_documents()) == []


def test_schema_validation_needs_no_network() -> None:
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-n", "true"], check=False).returncode:
        pytest.skip("cannot create a network namespace here")
    # No interface but a down loopback: any download would fail.
    run = subprocess.run(
        [unshare, "-n", sys.executable, "-m", "tests.deploy.schemas"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "valid" in run.stdout


def test_interpolation_follows_compose_rules() -> None:
    env = {"SET": "x", "EMPTY": ""}
    assert interpolate("${SET:-d} ${EMPTY:-d} ${EMPTY-d} ${UNSET-d} $$HOME", env) == "x d  d $HOME"
    with pytest.raises(InterpolationError, match="QHOME_HOST"):
        load_compose(ROOT / "deploy" / "compose.q.yaml", read_env_file())


def test_replicas_sit_behind_the_gateway() -> None:
    services = _resolved()
    verifier, gateway = services["verifier"], services["gateway"]
    # Replicas publish nothing (N of them could not share a host port); the gateway does.
    assert "ports" not in verifier and verifier["expose"] == ["8000"]
    assert int(verifier["deploy"]["replicas"]) >= 2
    assert verifier["deploy"]["resources"]["limits"]["pids"]
    assert gateway["ports"] == ["8000:8000"]
    assert gateway["image"].startswith("nginx:1.28")  # `server ... resolve` needs >= 1.27.3
    assert gateway["depends_on"]["verifier"]["condition"] == "service_healthy"
    assert "/ready" in " ".join(gateway["healthcheck"]["test"])
    mount = f"./{TEMPLATE.relative_to(ROOT)}:/etc/nginx/templates/default.conf.template:ro"
    assert gateway["volumes"] == [mount]


def test_gateway_template_is_fully_configured_by_compose() -> None:
    text = TEMPLATE.read_text()
    placeholders = set(re.findall(r"\$\{([A-Z0-9_]+)\}", text))
    assert placeholders == set(compose_gateway_environment())
    servers = compose_gateway_environment()["GATEWAY_UPSTREAM_SERVERS"]
    assert servers.startswith("server verifier:8000 resolve ") and "max_fails=" in servers
    for directive in (
        "non_idempotent",
        "proxy_next_upstream_tries",
        "keepalive ",
        "proxy_http_version 1.1;",
        'proxy_set_header Connection "";',
        "least_conn;",
        "resolver 127.0.0.11",
    ):
        assert directive in text, directive


def _nginx_bytes(size: str) -> int:
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    return int(size[:-1]) * units[size[-1].lower()] if size[-1].isalpha() else int(size)


def test_gateway_accepts_every_body_the_replicas_accept() -> None:
    services = _resolved()
    gateway_limit = _nginx_bytes(services["gateway"]["environment"]["GATEWAY_MAX_BODY_SIZE"])
    assert gateway_limit >= int(services["verifier"]["environment"]["VERIFIER_MAX_BODY_BYTES"])


def test_verifier_settings_are_real_settings() -> None:
    from services.settings import variables

    known = {variable.env for variable in variables()}
    for name in _resolved()["verifier"]["environment"]:
        assert name in known, name


def test_trainer_waits_for_healthy_services_on_its_own_gpu() -> None:
    services = _resolved()
    trainer, rubric = services["trainer"], services["rubric"]
    assert trainer["profiles"] == ["train"]
    assert trainer["command"][:3] == ["grpo-train", "--config", "configs/math.yaml"]
    assert trainer["command"][trainer["command"].index("--service_url") + 1] == (
        "http://gateway:8000"
    )
    assert {name: dep["condition"] for name, dep in trainer["depends_on"].items()} == {
        "gateway": "service_healthy",
        "rubric": "service_healthy",
    }
    train_gpu = trainer["deploy"]["resources"]["reservations"]["devices"][0]
    rubric_gpu = rubric["deploy"]["resources"]["reservations"]["devices"][0]
    assert train_gpu["capabilities"] == ["gpu"]
    # Explicit, distinct device ids: `count` would give both services the same GPU.
    assert set(train_gpu["device_ids"]).isdisjoint(rubric_gpu["device_ids"])
    assert "--tensor-parallel-size" in rubric["command"]


def test_prometheus_scrapes_every_replica() -> None:
    prometheus = _resolved()["prometheus"]
    assert prometheus["profiles"] == ["monitoring"]
    source = prometheus["volumes"][0].split(":")[0]
    config = yaml.safe_load((ROOT / source).read_text())
    verifier_job = next(job for job in config["scrape_configs"] if job["job_name"] == "verifier")
    assert verifier_job["dns_sd_configs"][0] == {
        "names": ["verifier"],
        "type": "A",
        "port": 8000,
        "refresh_interval": "15s",
    }


def test_cpu_override_runs_the_whole_stack_without_a_gpu() -> None:
    services = load_compose(ROOT / "deploy" / "compose.cpu.yaml", read_env_file())["services"]
    rubric, trainer = services["rubric"], services["trainer"]
    # `deploy: !reset {}` drops compose.yaml's GPU reservations (read here as {}).
    assert rubric["deploy"] == {} and trainer["deploy"] == {}
    assert rubric["build"]["dockerfile"] == "deploy/rubric-cpu.Dockerfile"
    assert rubric["command"][:2] == ["--served-model-name", "verifier"]
    assert {"--dtype", "float32", "--enforce-eager"} <= set(rubric["command"])
    assert trainer["build"]["args"]["TORCH_CUDA"] == "no"
    assert "whl/cpu" in trainer["build"]["args"]["TORCH_INDEX_URL"]
    command = trainer["command"]
    assert command[command.index("--config") + 1] == "configs/demo_cpu.yaml"
    assert command[command.index("--model_path") + 1] == "smollm2"
    assert command[command.index("--service_url") + 1] == "http://gateway:8000"
    assert (ROOT / "trainer" / "configs" / "demo_cpu.yaml").exists()


def test_builds_take_their_base_images_and_wheels_from_settings() -> None:
    for path in COMPOSE_FILES:
        for name, service in load_compose(path)["services"].items():
            build = service.get("build")
            if build and "dockerfile" in build:
                assert build["args"]["BASE"] == "${BASE_IMAGE:-python:3.11-slim}", name
                assert build["args"]["WHEELS"] == "${WHEELS_IMAGE:-scratch}", name
                assert build["network"] == "${BUILD_NETWORK:-default}", name
                assert build["secrets"] == ["ca"], name
