"""deploy/ray/serve.yaml as the harness adapts it to a simulated cluster on one machine.

The rest of harness/ray_cluster.py starts Ray (raylets, Serve, ``serve run``) or asks a
running one (replicas, status, kills): it is exercised on a real simulated cluster by
tests/deploy/test_ray.py. Here, besides, the start's retry: Ray fails a node whose raylet
has not registered within a fixed 30 s, which a loaded machine can cause but a test
cannot on demand, so a stand-in Cluster fails the way Ray's does (leaving the timed-out
node's process running) and the retry is checked against it."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest
import yaml

pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")

from harness import ray_cluster
from harness.ray_cluster import APP, DEPLOYMENT, SERVE_CONFIG, serve_config

ORIGINAL = yaml.safe_load(SERVE_CONFIG.read_text())


def test_serve_config_listens_on_loopback_with_one_proxy_and_keeps_the_rest() -> None:
    config = serve_config(18123, {})
    assert config["proxy_location"] == "HeadOnly"
    assert config["http_options"] == {
        **ORIGINAL["http_options"],
        "host": "127.0.0.1",
        "port": 18123,
    }
    assert config["applications"] == ORIGINAL["applications"]  # nothing else changed


def test_serve_config_adds_environment_and_overrides_deployment_fields() -> None:
    deployment = {"ray_actor_options": {"num_cpus": 0.5}, "max_ongoing_requests": 3}
    env = {"VERIFIER_MODE": "hybrid", "VERIFIER_SANDBOX_WORKERS": "1"}
    config = serve_config(18124, deployment, env)
    (application,) = config["applications"]
    assert application["name"] == APP
    original_env = ORIGINAL["applications"][0]["runtime_env"]["env_vars"]
    assert application["runtime_env"]["env_vars"] == {**original_env, **env}
    (verifier,) = application["deployments"]
    assert verifier["name"] == DEPLOYMENT
    assert verifier["ray_actor_options"] == {"num_cpus": 0.5}  # replaced whole
    assert verifier["max_ongoing_requests"] == 3
    assert (
        verifier["autoscaling_config"]
        == (ORIGINAL["applications"][0]["deployments"][0]["autoscaling_config"])
    )


def test_serve_config_is_a_fresh_copy_each_time() -> None:
    serve_config(18125, {"max_ongoing_requests": 1}, {"A": "1"})
    assert serve_config(18126, {}) == {
        **ORIGINAL,
        "proxy_location": "HeadOnly",
        "http_options": {**ORIGINAL["http_options"], "host": "127.0.0.1", "port": 18126},
    }


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a killed child not yet reaped counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class FlakyCluster:
    """Starts a real process per node, like Ray's Cluster; the first ``fail`` worker nodes
    to start time out as Ray's do: the exception, with the node's process left running."""

    fail = 0
    started: ClassVar[list[subprocess.Popen[bytes]]] = []
    shut_down: ClassVar[list[FlakyCluster]] = []

    def __init__(self, initialize_head: bool, head_node_args: dict[str, Any]) -> None:
        assert initialize_head and head_node_args["include_dashboard"]
        self.nodes = [self._process()]

    def _process(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(["sleep", "60"])
        FlakyCluster.started.append(process)
        return process

    def add_node(self, **node_args: Any) -> None:
        process = self._process()
        if FlakyCluster.fail > 0:
            FlakyCluster.fail -= 1
            raise Exception("The current node timed out during startup.")
        self.nodes.append(process)

    def shutdown(self) -> None:
        FlakyCluster.shut_down.append(self)
        for process in self.nodes:
            process.kill()
            process.wait()


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(ray_cluster, "Cluster", FlakyCluster)
    FlakyCluster.started, FlakyCluster.shut_down = [], []
    yield FlakyCluster
    for process in FlakyCluster.started:
        process.kill()
        process.wait()


def test_a_node_that_times_out_starts_the_cluster_again_without_its_processes(
    flaky: Any,
) -> None:
    flaky.fail = 1
    cluster = cast(FlakyCluster, ray_cluster._start_cluster(nodes=3, node_cpus=1))
    first_try = flaky.started[:2]  # the head and the node that timed out
    assert flaky.shut_down != [] and flaky.shut_down[0] is not cluster
    deadline = time.monotonic() + 10
    while any(alive(process.pid) for process in first_try) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(process.pid) for process in first_try)  # the timed-out one too
    assert len(cluster.nodes) == 3 and all(alive(p.pid) for p in cluster.nodes)
    cluster.shutdown()


def test_a_cluster_that_never_starts_is_an_error_naming_every_try(flaky: Any) -> None:
    flaky.fail = ray_cluster.START_ATTEMPTS
    with pytest.raises(RuntimeError) as raised:
        ray_cluster._start_cluster(nodes=2, node_cpus=1)
    assert not isinstance(raised.value, ray_cluster.RayCannotStart)  # not a reason to skip
    for attempt in range(1, ray_cluster.START_ATTEMPTS + 1):
        assert f"try {attempt}: a worker node: The current node timed out" in str(raised.value)
    assert len(flaky.shut_down) == ray_cluster.START_ATTEMPTS


def test_kill_started_since_spares_what_ran_before() -> None:
    older = subprocess.Popen(["sleep", "60"])
    try:
        before = set(ray_cluster._descendants(os.getpid()))
        assert older.pid in before
        newer = subprocess.Popen(["sh", "-c", "sleep 60 & wait"])
        time.sleep(0.2)
        grandchildren = [pid for pid in ray_cluster._descendants(newer.pid) if alive(pid)]
        assert grandchildren  # the shell's sleep
        ray_cluster._kill_started_since(before)
        newer.wait(timeout=10)
        assert alive(older.pid)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in grandchildren) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in grandchildren)
    finally:
        older.kill()
        older.wait()
