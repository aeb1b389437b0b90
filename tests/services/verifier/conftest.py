"""Fixtures: real vLLM servers (CPU, SmolLM2-135M-Instruct) for the verifier tests.

The servers live as long as this folder's tests (package scope), not the whole session: each
holds about 2.5 GB of memory that the tests after them on the same worker can use."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.service import running_service
from harness.vllm import VLLMServer, VLLMUnavailable, ensure_vllm_venv, running_vllms

VLLM_API_KEY = "vllm-test-key-not-a-secret"


@pytest.fixture(scope="session")
def smollm2_dir() -> Path:
    from trainer.smollm2 import ensure_smollm2

    return ensure_smollm2()


@pytest.fixture(scope="session")
def vllm_python() -> Path:
    """The vLLM venv; the only reason to skip is an unreachable PyPI on a first build."""
    try:
        return ensure_vllm_venv()
    except VLLMUnavailable as exc:
        pytest.skip(f"vLLM venv cannot be built: {exc}")


@pytest.fixture(scope="package")
def vllm_servers(vllm_python: Path, smollm2_dir: Path) -> Iterator[list[VLLMServer]]:
    """The two servers the tests need, started side by side (their start-ups overlap): one
    without a key, and one with --api-key, which the restart test kills and restarts."""
    with running_vllms(smollm2_dir, [None, VLLM_API_KEY]) as servers:
        yield servers


@pytest.fixture(scope="package")
def vllm_server(vllm_servers: list[VLLMServer]) -> VLLMServer:
    return vllm_servers[0]


@pytest.fixture(scope="package")
def vllm_server_with_key(vllm_servers: list[VLLMServer]) -> VLLMServer:
    return vllm_servers[1]


@pytest.fixture(scope="package")
def service_with_verifier(vllm_server: VLLMServer) -> Iterator[str]:
    """The service with the vLLM server as its verifier, given as two URLs of both forms."""
    env = {
        "VERIFIER_LLM_URL": f"{vllm_server.url}/v1, {vllm_server.url}",
        "VERIFIER_LLM_MODEL": vllm_server.model,
        "VERIFIER_LLM_TIMEOUT_S": "600",  # a CPU server is slow; nothing here tests timeouts
        "VERIFIER_MATH_WORKERS": "1",
    }
    with running_service(env) as url:
        yield url


# A CPU vLLM server answers a verifier batch in tens of seconds, and a session fixture's
# start-up (about a minute) is charged to the first test that uses it.
VLLM_TEST_TIMEOUT_S = 900


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.timeout(VLLM_TEST_TIMEOUT_S))
