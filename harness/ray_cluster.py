"""A simulated multi-node Ray cluster on this machine, with the verifier's Serve app on it.

The nodes are separate raylets with their own CPU counts (``ray.cluster_utils.Cluster``),
sharing this machine's cores. The app is deployed the way docs/deployment.md says, with
``serve run`` on deploy/ray/serve.yaml, after adapting the file to a small machine: a
fractional CPU per replica, a loopback port, one proxy, faster autoscaling. The nodes
import the app from this checkout (``services.ray_deployment``), as a real cluster's nodes
import it from the installed ``reward-verifier[ray]``.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray
import yaml
from ray import serve
from ray.cluster_utils import Cluster
from ray.util.state import list_actors

from services.launcher import free_port

ROOT = Path(__file__).resolve().parent.parent
SERVE_CONFIG = ROOT / "deploy" / "ray" / "serve.yaml"
APP = "verifier"
DEPLOYMENT = "Verifier"
REPLICA_CLASS = f"ServeReplica:{APP}:{DEPLOYMENT}"
# How often the proxy and the replicas report ongoing requests to Serve's autoscaler
# (default 10 s): often enough that a test sees it scale within seconds.
FAST_METRICS = {
    "RAY_SERVE_HANDLE_AUTOSCALING_METRIC_PUSH_INTERVAL_S": "0.5",
    "RAY_SERVE_REPLICA_AUTOSCALING_METRIC_PUSH_INTERVAL_S": "0.5",
}


# Tries at starting the cluster before giving up (see _start_cluster).
START_ATTEMPTS = 3
logger = logging.getLogger(__name__)


class RayCannotStart(RuntimeError):
    """Ray itself failed to start here (not the app): the reason to skip a test."""


@dataclass(frozen=True, slots=True)
class Replica:
    name: str  # the actor's name, for ray.get_actor(name, namespace="serve")
    node_id: str
    pid: int | None  # the replica's worker process, where Ray reports it


@dataclass(frozen=True, slots=True)
class ServeCluster:
    cluster: Cluster
    url: str  # Serve's HTTP proxy


def serve_config(
    port: int, deployment: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """deploy/ray/serve.yaml with a loopback port, one proxy (on the head node; every
    simulated node would bind the same port), extra settings in the replicas' environment
    and ``deployment``'s fields over the Verifier deployment's."""
    config: dict[str, Any] = yaml.safe_load(SERVE_CONFIG.read_text())
    config["proxy_location"] = "HeadOnly"
    config["http_options"] = {**config["http_options"], "host": "127.0.0.1", "port": port}
    (application,) = config["applications"]
    runtime_env = application["runtime_env"]
    runtime_env["env_vars"] = {**runtime_env.get("env_vars", {}), **(env or {})}
    (verifier,) = application["deployments"]
    verifier.update(deployment)
    return config


def deploy(config: Mapping[str, Any], address: str) -> None:
    """``serve run CONFIG --non-blocking``, the documented command, against ``address``."""
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as file:
        yaml.safe_dump(dict(config), file)
    try:
        done = subprocess.run(
            [str(Path(sys.executable).parent / "serve"), "run", file.name, "--non-blocking"],
            cwd=ROOT,
            env={**os.environ, "RAY_ADDRESS": address},
            capture_output=True,
            text=True,
            timeout=180,
        )
    finally:
        os.unlink(file.name)
    if done.returncode != 0:
        raise RuntimeError(f"serve run failed (rc={done.returncode}):\n{done.stderr[-3000:]}")


def running_replicas() -> list[Replica]:
    """The verifier's replicas whose actors are alive, from Ray's state API."""
    actors = list_actors(
        filters=[("class_name", "=", REPLICA_CLASS), ("state", "=", "ALIVE")],
        raise_on_missing_output=False,
    )
    return [Replica(str(actor.name), str(actor.node_id), actor.pid) for actor in actors]


def replica_count() -> int:
    """Replicas Serve counts as RUNNING (started and healthy)."""
    status = serve.status().applications.get(APP)
    if status is None or DEPLOYMENT not in status.deployments:
        return 0
    states = status.deployments[DEPLOYMENT].replica_states
    # Keys are ReplicaState (a str enum) or, as parsed by serve.status(), plain strings.
    return sum(count for state, count in states.items() if state == "RUNNING")


def app_state() -> str:
    """The app's and the deployment's status, message and replica states, for a failure's
    message."""
    status = serve.status().applications.get(APP)
    if status is None:
        return f"no {APP} app"
    deployment = status.deployments.get(DEPLOYMENT)
    shown = f"app {status.status} {status.message!r}"
    if deployment is not None:
        states = {str(state): count for state, count in deployment.replica_states.items()}
        shown += f"; {DEPLOYMENT} {deployment.status} {deployment.message!r} replicas {states}"
    return shown


def wait_for_replicas(count: int, timeout_s: float) -> float:
    """Block until exactly ``count`` replicas run, the app is RUNNING and no other replica
    actor is still alive (one that is shutting down); seconds waited."""
    start = time.monotonic()
    while True:
        status = serve.status().applications.get(APP)
        if (
            status is not None
            and status.status == "RUNNING"
            and replica_count() == count
            and len(running_replicas()) == count
        ):
            return time.monotonic() - start
        if status is not None and status.status == "DEPLOY_FAILED":
            raise RuntimeError(f"the verifier app failed to deploy: {status.message}")
        if time.monotonic() - start > timeout_s:
            raise TimeoutError(f"{count} replicas not running after {timeout_s:g}s: {app_state()}")
        time.sleep(0.5)


def delete_app(timeout_s: float) -> None:
    """Remove the verifier app and wait until none of its replica actors is alive.

    ``serve run`` leaves an application that already runs as it is (only a code change
    redeploys it), so a new configuration of the same app starts from a deleted one."""
    serve.delete(APP)
    deadline = time.monotonic() + timeout_s
    while running_replicas():
        if time.monotonic() > deadline:
            raise TimeoutError(f"replicas still alive {timeout_s:g}s after deleting the app")
        time.sleep(0.5)


def kill_replica(replica: Replica) -> None:
    """Kill the replica's actor at once (its process exits, as on a crashed node); Serve
    then starts a replacement to keep the replica count."""
    ray.kill(ray.get_actor(replica.name, namespace="serve"), no_restart=True)


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (children, theirs, ...), read from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while the table was read
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, of in parents.items() if of == parent]
        found += children
        frontier += children
    return found


def _kill_started_since(before: set[int]) -> None:
    """Kill the processes this one started (directly or not) that were not in ``before``:
    what a failed start left running (a raylet that timed out, its agents)."""
    for pid in _descendants(os.getpid()):
        if pid not in before:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _start_cluster(nodes: int, node_cpus: float) -> Cluster:
    """The head node and ``nodes - 1`` more, started again from nothing when a start times
    out (``START_ATTEMPTS`` tries in all).

    Ray gives a new raylet 30 s to register with the GCS (a constant in ray._private.node);
    on a 2-core machine busy with other work that can pass, and the node then fails to
    start though nothing is wrong with it. Each failed try's processes are killed first."""
    node_args: dict[str, Any] = {"num_cpus": node_cpus, "env_vars": FAST_METRICS}
    failures: list[str] = []
    for attempt in range(1, START_ATTEMPTS + 1):
        before = set(_descendants(os.getpid()))
        cluster: Cluster | None = None
        try:
            cluster = Cluster(
                initialize_head=True,
                head_node_args={
                    **node_args,
                    "include_dashboard": True,
                    "dashboard_host": "127.0.0.1",
                    "dashboard_port": free_port(),
                },
            )
            for _ in range(nodes - 1):
                cluster.add_node(**node_args)
            return cluster
        except Exception as exc:  # Ray's own start-up failed: try again from nothing
            which = "a head node" if cluster is None else "a worker node"
            failures.append(f"try {attempt}: {which}: {exc}")
            logger.warning(
                "Ray could not start %s (try %d of %d): %s", which, attempt, START_ATTEMPTS, exc
            )
            if cluster is not None:
                with suppress(Exception):
                    cluster.shutdown()
            _kill_started_since(before)
    message = f"Ray could not start a {nodes}-node cluster in {START_ATTEMPTS} tries:\n" + (
        "\n".join(failures)
    )
    if all(": a head node: " in failure for failure in failures):
        raise RayCannotStart(message)  # Ray does not start here at all
    raise RuntimeError(message)


@contextmanager
def simulated_cluster(nodes: int, node_cpus: float) -> Iterator[Cluster]:
    """``nodes`` raylets of ``node_cpus`` each (the head runs the dashboard, which Ray's
    state API needs), this process connected as a driver; all of it stopped on exit."""
    cluster = _start_cluster(nodes, node_cpus)
    try:
        ray.init(address=cluster.address, logging_level=logging.WARNING, log_to_driver=False)
        yield cluster
    finally:
        try:
            if ray.is_initialized():
                serve.shutdown()
        finally:
            ray.shutdown()
            cluster.shutdown()


@contextmanager
def serve_cluster(
    nodes: int,
    node_cpus: float,
    deployment: Mapping[str, Any],
    env: Mapping[str, str] | None = None,
    replicas: int = 1,
    startup_s: float = 180,
) -> Iterator[ServeCluster]:
    """A simulated cluster with the verifier deployed on it and ``replicas`` running."""
    with simulated_cluster(nodes, node_cpus) as cluster:
        port = free_port()
        deploy(serve_config(port, deployment, env), cluster.address)
        wait_for_replicas(replicas, startup_s)
        yield ServeCluster(cluster, f"http://127.0.0.1:{port}")
