"""The vLLM server helper's command line and start-up diagnosis, without starting vLLM."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.vllm import VLLMServer


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
