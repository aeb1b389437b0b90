from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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


# `make test` runs the suite on two workers (pytest-xdist: -n 2 --dist loadgroup
# --no-loadscope-reorder), in groups that keep every expensive fixture's users together, so
# that a run starts one vLLM server of each kind, one Ray cluster and one compose stack. Each
# group runs whole on one worker, in collection order, and the groups are handed out in the
# order below. The first two start at once: the bulk of the suite, and the end-to-end compose
# test (mostly image builds and waits on them). xdist queues the third behind the compose
# test at the start (a worker with at most two tests pending gets the next group), so the
# third is the shortest; the others go to whichever worker frees up first, longest first.
# Each starts what it needs for itself (its vLLM servers, Ray, and a service of its own where
# it uses one: a few seconds). The Ray cluster test and verl's runs, which start a Ray of
# their own, share a group: never two Rays at once.
GROUPS = {
    "tests/deploy/test_compose_e2e.py": "compose",
    "tests/trainer/test_demo.py": "demo",
    "tests/services/verifier/": "vllm",
    "tests/deploy/test_ray.py": "ray",
    "tests/trainer/adapters/test_verl_": "ray",
}
SUITE = "suite"
ORDER = list(dict.fromkeys([SUITE, *GROUPS.values()]))


def group_of(nodeid: str) -> str:
    """The group of the test ``nodeid`` (a path relative to the repository, then ``::``)."""
    path = nodeid.split("::", 1)[0]
    return next((group for prefix, group in GROUPS.items() if path.startswith(prefix)), SUITE)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's loadgroup scheduling, its groups taken from ``GROUPS``: xdist reads them from
    ``xdist_group`` marks through a node-id suffix that pytest 9.2's node ids no longer take."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    scheduler = LoadScopeScheduling(config, log)
    scheduler._split_scope = group_of  # a test's scope: the group its users share
    return scheduler


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("loadgroup", False):  # set on xdist's workers under --dist loadgroup
        # xdist hands out groups in the order their first tests are collected; the sort is
        # stable, so each group keeps its own order.
        items.sort(key=lambda item: ORDER.index(group_of(item.nodeid)))
