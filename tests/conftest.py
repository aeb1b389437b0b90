from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from harness.compose_files import ROOT
from harness.service import running_service
from services.mathcheck import parser_snapshot

# What the suite's processes cache goes inside the checkout (its ignored .cache), not into the
# user's cache: the math parser's snapshot of every service and worker pool, matplotlib's
# font list (the vLLM server's caches: harness.vllm).
CACHES = {parser_snapshot.DIRECTORY_ENV: "parser-snapshot", "MPLCONFIGDIR": "matplotlib"}
for variable, folder in CACHES.items():
    os.environ.setdefault(variable, str(ROOT / ".cache" / folder))

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
# --no-loadscope-reorder). A worker runs one group at a time, whole, in collection order:
# a test file is a group, except that the users of each expensive fixture are one group
# together (GROUPS), so that a run starts one compose stack, one vLLM server, one Ray Serve
# cluster and one run of verl. The compose stack and the Ray Serve tests share a group: on 2
# cores, a three-node Ray cluster starting beside the stack's replicas, rubric and trainer
# could not get its replicas running within minutes (nor the stack pass its checks), so the
# worker that builds the stack runs the Ray tests after it. verl's two test files share one
# run of verl (a session fixture: once per worker, so one group). Session fixtures (the
# default service, a few seconds) start once per worker.
GROUPS = {
    "tests/deploy/test_compose_e2e.py": "compose, then ray",
    "tests/deploy/test_ray.py": "compose, then ray",
    "tests/trainer/adapters/test_verl_": "verl",
    "tests/services/verifier/": "vllm",
}
# The order groups are handed out in: longest first, so the two workers end close together,
# except verl. xdist gives the first worker the first group and the second the second; a
# worker then takes the next group when at most two of its tests are left. So verl runs on
# the second worker while the first builds the stack, and the vLLM tests follow it: verl's
# Ray has ended before the Ray Serve tests start, which never wait for its machine lock.
# The vLLM server's tests overlap the stack's checks and the Ray tests on 2 cores: their
# waits are sized for it (a replica's healthcheck ignores its first 180 s, a CPU vLLM
# server may take 600 s, a new Ray replica 180 s). Seconds are one fresh clone's `make
# test` on two workers (`--junitxml`, 2026-11-28, the 2-core machine, the stack's images
# built afresh); groups not listed follow in collection order (each under 25 s).
LONGEST_FIRST = [
    # 682 s + 499 s (the Ray tests' 499 include about 4 minutes of waiting for verl's
    # run to let go of the machine, the order before this one)
    "compose, then ray",
    # 301 s; before the vLLM tests, so that it has ended when the Ray tests start
    "verl",
    "vllm",  # 563 s
    "tests/services/test_admission.py",  # 162 s
    "tests/reliability/test_faults.py",  # 150 s
    "tests/services/tasks/math/test_workers.py",  # 142 s
    "tests/deploy/test_gateway.py",  # 111 s
    "tests/services/test_cli.py",  # 109 s
    "tests/trainer/test_demo.py",  # 95 s
    "tests/reliability/test_equivalence_properties.py",  # 67 s
    "tests/services/api/test_readiness.py",  # 63 s
    "tests/services/test_api.py",  # 61 s
    "tests/services/exploits/test_adversaries_humaneval.py",  # 55 s
    "tests/services/test_composition.py",  # 54 s
    "tests/services/exploits/test_adversaries.py",  # 53 s
    "tests/trainer/test_service_client.py",  # 50 s
    "tests/services/api/test_readiness_q.py",  # 47 s
    "tests/reliability/test_openapi_fuzz.py",  # 46 s
    "tests/deploy/test_gateway_backpressure.py",  # 43 s
    "tests/reliability/test_security.py",  # 39 s
    "tests/services/mathcheck/test_two_stage_parsing.py",  # 36 s
    "tests/sandbox/test_exploits.py",  # 33 s
    "tests/services/exploits/test_evaluation.py",  # 33 s
    "tests/services/mathcheck/test_parser_snapshot.py",  # 33 s
    "tests/sandbox/test_host_work.py",  # 29 s
    "tests/trainer/test_recipe_commands.py",  # 26 s
]


def group_of(nodeid: str) -> str:
    """The group of the test ``nodeid`` (a path relative to the repository, then ``::``):
    its expensive fixture's group, else its file."""
    path = nodeid.split("::", 1)[0]
    return next((group for prefix, group in GROUPS.items() if path.startswith(prefix)), path)


def _rank(group: str) -> int:
    return LONGEST_FIRST.index(group) if group in LONGEST_FIRST else len(LONGEST_FIRST)


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
        items.sort(key=lambda item: _rank(group_of(item.nodeid)))
