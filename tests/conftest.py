from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from harness.service import running_service

API_KEY = "test-key-not-a-secret"
SMALL_BODY_LIMIT = 200_000
SMALL_BATCH_LIMIT = 50
# The strict service's tests per code item: without max_tests, and whatever it says.
SMALL_TEST_LIMIT = 4
SMALL_TEST_CEILING = 6
# Set in the service's environment; sandboxed programs must never see it.
CANARY = "canary-3f9d2c-must-not-leak"


@pytest.fixture(scope="session")
def service_url() -> Iterator[str]:
    """The service with default settings, as `verifier serve` would run it."""
    # A deadline far above any legitimate comparison (~0.3 s at most), so a busy CI machine
    # cannot turn a slow verdict into a timeout; the hostile-input test runs its own service.
    with running_service({"VERIFIER_MATH_TIMEOUT_S": "20", "VERIFIER_CANARY": CANARY}) as url:
        yield url


@pytest.fixture(scope="session")
def strict_service_url() -> Iterator[str]:
    """The service with an API key and small body/batch/test limits."""
    env = {
        "VERIFIER_API_KEY": API_KEY,
        "VERIFIER_MAX_BODY_BYTES": str(SMALL_BODY_LIMIT),
        "VERIFIER_MAX_BATCH_ITEMS": str(SMALL_BATCH_LIMIT),
        "VERIFIER_CODE_MAX_TESTS": str(SMALL_TEST_LIMIT),
        "VERIFIER_CODE_MAX_TESTS_CEILING": str(SMALL_TEST_CEILING),
        "VERIFIER_MATH_WORKERS": "1",
    }
    with running_service(env) as url:
        yield url


@pytest.fixture
def client(service_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service_url, timeout=300) as http:
        yield http
