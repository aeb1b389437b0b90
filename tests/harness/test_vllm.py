"""The vLLM server helper's command line and start-up diagnosis, without starting vLLM."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.vllm import REPO, VLLMServer


def _server(tmp_path: Path, **kwargs: Any) -> VLLMServer:
    log = tmp_path / "vllm.log"
    log.touch()
    return VLLMServer(python=Path("python"), model_dir="m", port=8001, log_path=log, **kwargs)


def test_cpu_flags_only_for_the_cpu_server(tmp_path: Path) -> None:
    cpu = _server(tmp_path).command()
    assert cpu[cpu.index("--dtype") + 1] == "float32"
    assert "--enforce-eager" in cpu and cpu[cpu.index("--block-size") + 1] == "32"
    gpu = _server(tmp_path, gpu=True, extra_args=("--gpu-memory-utilization", "0.5")).command()
    assert "--dtype" not in gpu and "--enforce-eager" not in gpu and "--block-size" not in gpu
    assert gpu[-2:] == ["--gpu-memory-utilization", "0.5"]
    assert gpu[gpu.index("--model") + 1] == "m"


def test_api_key_is_passed_to_vllm(tmp_path: Path) -> None:
    command = _server(tmp_path, api_key="s3cret").command()
    assert command[command.index("--api-key") + 1] == "s3cret"


def test_first_error_is_the_root_cause_not_a_warning(tmp_path: Path) -> None:
    server = _server(tmp_path)
    assert server.first_error() is None
    server.log_path.write_text(
        "(APIServer) WARNING ulimit ... can cause `OSError: [Errno 24] Too many open files`\n"
        "(VllmWorker-0) ERROR ValueError: Available memory on node 0 is less than desired\n"
        "RuntimeError: Engine core initialization failed. See root cause above.\n"
    )
    assert server.first_error() == "ValueError: Available memory on node 0 is less than desired"


def test_the_cpu_server_caches_in_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As torch leaves it in a process that asked for its cache folder before the launch.
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", "/tmp/torchinductor_root")
    monkeypatch.delenv("TMPDIR", raising=False)
    env = _server(tmp_path).environment()
    caches = REPO / ".cache"
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(caches / "torchinductor")
    assert env["TMPDIR"] == str(caches / "vllm-tmp")  # where torch puts its C++ header
    assert not env["VLLM_RPC_BASE_PATH"].startswith(str(caches))  # sockets: short paths
    gpu = _server(tmp_path, gpu=True).environment()
    assert gpu["TORCHINDUCTOR_CACHE_DIR"] == "/tmp/torchinductor_root" and "TMPDIR" not in gpu
