"""Fixtures: one real vLLM server (CPU, SmolLM2-135M-Instruct) for the verifier tests.

The server lives as long as this folder's tests (package scope), not the whole session: it
holds about 2.5 GB of memory that the tests after them on the same worker can use. It takes
an API key (--api-key), so every client here sends one; the restart test kills it and starts
it again on the same port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.service import running_service
from harness.vllm import VLLMServer, VLLMUnavailable, ensure_vllm_venv, running_vllm

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
def vllm_server(vllm_python: Path, smollm2_dir: Path) -> Iterator[VLLMServer]:
    with running_vllm(smollm2_dir, api_key=VLLM_API_KEY) as server:
        yield server


@pytest.fixture(scope="package")
def service_with_verifier(vllm_server: VLLMServer) -> Iterator[str]:
    """The service with the vLLM server as its verifier, given as two URLs of both forms."""
    env = {
        "VERIFIER_LLM_URL": f"{vllm_server.url}/v1, {vllm_server.url}",
        "VERIFIER_LLM_MODEL": vllm_server.model,
        "VERIFIER_LLM_API_KEY": VLLM_API_KEY,
        # A critique of 48 tokens, not 256: on CPU the critique is most of a rubric grade's
        # time, and the score that follows it is forced either way (test_vllm_rubric.py).
        "VERIFIER_LLM_RUBRIC_MAX_TOKENS": "48",
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
