"""The app with its real backends, in this process (no server, no port)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from services.app import create_app
from services.settings import Settings

API_KEY = "api-test-key-not-a-secret"


@pytest.fixture(scope="session")
def app_client() -> Iterator[TestClient]:
    """Math workers and a sandbox as the service runs them, with a key; the lifespan runs."""
    settings = Settings(
        api_key=API_KEY,
        math_workers=1,
        sandbox={"workers": 1},
        required_backends="math",
        exploit_canary_interval_s=0,
        max_batch_items=4,
    )
    with TestClient(create_app(settings)) as client:
        yield client
