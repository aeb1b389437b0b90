"""The Ray Serve deployment (deploy/ray/) on a simulated three-node Ray cluster.

Three raylets of one CPU each share this machine's cores; the app is deployed with the
documented ``serve run deploy/ray/serve.yaml`` (adapted by harness.ray_cluster: half a CPU
per replica, at most one replica per node, 2 to 3 replicas, fast autoscaling). Everything
goes over HTTP through Serve's proxy.

Who retries when a replica dies: Serve's proxy re-routes a request only while no replica
has accepted it yet; a request a replica was scoring when it died comes back as a 5xx (or
a broken connection). The client resends it, as the trainer's client (AsyncServiceClient,
used here) does for every 5xx and transport error. Scoring is safe to repeat.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")

from harness import machine_lock, ray_cluster
from trainer.adapters.verl_reward import compute_score
from trainer.service_client import AsyncServiceClient, ClientSettings

# The first test also waits for verl's Ray to end where it runs (minutes) and starts the
# cluster and the app (1.5 to 2 minutes on a loaded 2-core machine): above pytest's default
# per-test limit.
pytestmark = pytest.mark.timeout(900)
# A new replica is a new Ray actor: on a busy 2-core machine its start alone can take a minute.
SCALE_UP_WAIT_S = 180

REPLICA_CPUS = 0.5
TEST_DEPLOYMENT: dict[str, Any] = {
    "ray_actor_options": {"num_cpus": REPLICA_CPUS},
    # Replicas on different nodes, so a kill takes one node's replica only.
    "max_replicas_per_node": 1,
    "max_ongoing_requests": 4,
    "health_check_period_s": 2,
    "autoscaling_config": {
        "min_replicas": 2,
        "max_replicas": 3,
        "target_ongoing_requests": 1,
        "upscale_delay_s": 1,
        "downscale_delay_s": 4,
        # Above Serve's metrics_interval_s default (10 s), which it still checks against
        # though the push interval now comes from the environment (harness.ray_cluster).
        "look_back_period_s": 11,
    },
}
# Far above any real comparison, so a loaded shared CPU never turns a verdict into a timeout.
REPLICA_ENV = {"VERIFIER_MATH_TIMEOUT_S": "30"}
LOAD_CLIENTS = 6


@pytest.fixture(scope="module")
def serve_url() -> Iterator[str]:
    # One Ray on the machine at a time: verl's run (tests/trainer/adapters) starts one too.
    try:
        with (
            machine_lock.held("ray"),
            ray_cluster.serve_cluster(
                nodes=3, node_cpus=1, deployment=TEST_DEPLOYMENT, env=REPLICA_ENV, replicas=2
            ) as deployed,
        ):
            yield deployed.url
    except ray_cluster.RayCannotStart as exc:
        pytest.skip(str(exc))


def math_items(rng: random.Random, count: int) -> tuple[list[dict[str, Any]], list[float]]:
    """Unique sums (the math cache must not answer), half right, half wrong."""
    items, expected = [], []
    for index in range(count):
        a, b = rng.randrange(10**6), rng.randrange(10**6)
        right = index % 2 == 0
        shown = f"\\frac{{{2 * (a + b)}}}{{2}}" if right else str(a + b + 1)
        items.append(
            {"task": "math", "completion": f"So \\boxed{{{shown}}}", "reference": f"{a + b}"}
        )
        expected.append(1.0 if right else -1.0)
    return items, expected


def code_item(rng: random.Random, sleep_s: float) -> tuple[dict[str, Any], float]:
    """A program that passes its one test after ``sleep_s``: reward 2 (all pass + bonus)."""
    value = rng.randrange(10**6)
    program = f"```python\nimport time\ntime.sleep({sleep_s})\nprint({value})\n```"
    test = {"stdin": "", "expected": str(value)}
    item = {"task": "code", "language": "python", "completion": program, "tests": [test]}
    return {**item, "timeout_s": 10}, 2.0


@dataclass
class Tally:
    items: int = 0
    lost: list[str] = field(default_factory=list)


async def score_and_check(
    client: AsyncServiceClient, items: list[dict[str, Any]], expected: list[float], tally: Tally
) -> None:
    try:
        results = await client.score(items, {})
    except Exception as exc:  # the client gave up: every item of the batch is lost
        tally.lost.append(f"{len(items)} items: {type(exc).__name__}: {exc}")
        return
    tally.items += len(items)
    for result, reward in zip(results, expected, strict=True):
        if result.status != "ok" or result.reward != reward:
            tally.lost.append(f"{result.status} {result.reward} != {reward}: {result}")


async def load_loop(
    client: AsyncServiceClient, seed: int, stop: asyncio.Event, tally: Tally, sleep_s: float
) -> None:
    """Mixed batches (8 math items and a code item) until ``stop`` (bounded in count)."""
    rng = random.Random(seed)
    for _ in range(500):
        if stop.is_set():
            return
        items, expected = math_items(rng, 8)
        code, reward = code_item(rng, sleep_s)
        await score_and_check(client, [*items, code], [*expected, reward], tally)


def trainer_client(url: str) -> AsyncServiceClient:
    """The trainer's own client, with a retry schedule sized for a replica's restart."""
    return AsyncServiceClient(
        ClientSettings(urls=(url,), timeout_s=60, retries=6, backoff_s=0.3, backoff_max_s=3)
    )


def test_replicas_run_on_different_nodes_with_the_sandbox_checked(serve_url: str) -> None:
    ray_cluster.wait_for_replicas(2, timeout_s=90)
    replicas = ray_cluster.running_replicas()
    assert len(replicas) == 2 and len({r.node_id for r in replicas}) == 2, replicas

    ready = httpx.get(f"{serve_url}/ready", timeout=30)
    assert ready.status_code == 200, ready.text
    backends = ready.json()["backends"]
    # The file's required backends, exploit canaries included, as every deployment requires.
    assert ready.json()["required"] == ["math", "sandbox", "canaries"], ready.json()
    assert backends["canaries"]["ok"], backends
    assert backends["sandbox"]["ok"], backends
    assert "bwrap" in backends["sandbox"]["detail"], backends
    # Half a CPU per replica: one worker of each kind, not one per core of the machine.
    assert backends["math"]["detail"] == "1 symbolic workers", backends


def test_serve_requires_the_backends_every_other_deployment_requires() -> None:
    """A Serve replica is ready only where a compose or Kubernetes replica would be: math,
    the sandbox and the exploit canaries (the service's default)."""
    root = Path(__file__).resolve().parents[2]
    serve = yaml.safe_load(ray_cluster.SERVE_CONFIG.read_text())
    (application,) = serve["applications"]
    required = application["runtime_env"]["env_vars"]["VERIFIER_REQUIRED_BACKENDS"]
    configmap = yaml.safe_load((root / "deploy/k8s/configmap.yaml").read_text())
    compose = (root / "compose.yaml").read_text()
    assert required == configmap["data"]["VERIFIER_REQUIRED_BACKENDS"] == "math,sandbox,canaries"
    assert "VERIFIER_REQUIRED_BACKENDS:-math,sandbox,canaries}" in compose


def test_math_and_code_batch_scored_through_serve(serve_url: str) -> None:
    passing = "```python\ndef add(a, b):\n    return a + b\n```"
    items = [
        {
            "task": "math",
            "completion": "<answer>\\boxed{\\frac{1}{2}}</answer>",
            "reference": "0.5",
        },
        {"task": "math", "completion": "\\boxed{3}", "reference": "4"},
        {"task": "math", "completion": "no idea", "reference": "4"},
        {
            "task": "code",
            "language": "python",
            "completion": passing,
            "tests": [
                {"code": "assert add(1, 2) == 3"},
                {"code": "print(add(2, 2))", "expected": "4"},
            ],
        },
        {
            "task": "code",
            "language": "python",
            "completion": "```python\ndef add(a, b):\n    return a - b\n```",
            "tests": [
                {"code": "assert add(1, 2) == 3"},
                {"code": "print(add(0, 0))", "expected": "0"},
            ],
        },
    ]
    response = httpx.post(f"{serve_url}/score", json={"items": items}, timeout=60)
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["reward"] for r in results] == [1.0, -1.0, -0.5, 2.0, 0.5], results
    assert {r["status"] for r in results} == {"ok"}, results


def test_verl_reward_function_scores_through_serve(serve_url: str) -> None:
    # verl's reward loop calls compute_score by keyword; the URL is Serve's HTTP address.
    right = compute_score(
        data_source="gsm8k", solution_str="#### 72", ground_truth="72", extra_info=None,
        url=serve_url,
    )  # fmt: skip
    wrong = compute_score(
        data_source="gsm8k", solution_str="#### 71", ground_truth="72", extra_info=None,
        url=serve_url,
    )  # fmt: skip
    assert (right["score"], wrong["score"]) == (1.0, -1.0), (right, wrong)


def test_killed_replica_loses_no_item(serve_url: str, caplog: pytest.LogCaptureFixture) -> None:
    ray_cluster.wait_for_replicas(2, timeout_s=90)
    caplog.set_level(logging.WARNING, logger="services.contract.client.http")

    async def scenario() -> tuple[Tally, ray_cluster.Replica]:
        tally, stop = Tally(), asyncio.Event()
        client = trainer_client(serve_url)
        loops = [
            asyncio.create_task(load_loop(client, seed, stop, tally, sleep_s=0.2))
            for seed in range(LOAD_CLIENTS)
        ]
        try:
            await asyncio.sleep(3)
            # Batches that hold their replica for 1.5 s: the victim surely has one in flight.
            rng = random.Random(99)
            long_batches = []
            for _ in range(4):
                code, reward = code_item(rng, 1.5)
                long_batches.append(
                    asyncio.create_task(score_and_check(client, [code], [reward], tally))
                )
            await asyncio.sleep(0.7)
            victim = ray_cluster.running_replicas()[0]
            await asyncio.to_thread(ray_cluster.kill_replica, victim)
            await asyncio.sleep(5)
        finally:
            stop.set()
            await asyncio.wait_for(asyncio.gather(*loops, *long_batches), timeout=120)
            await client.aclose()
        return tally, victim

    tally, victim = asyncio.run(scenario())
    retries = [r.getMessage() for r in caplog.records if "retrying" in r.getMessage()]

    assert tally.lost == [], (len(tally.lost), tally.lost[:5])
    assert tally.items >= 100, tally
    # The kill did hit requests in flight, and the client's resend recovered them.
    assert retries, "no request was retried after the replica was killed"
    alive = {replica.name for replica in ray_cluster.running_replicas()}
    assert victim.name not in alive
    # Serve replaces the dead replica (at least the minimum of 2 run again): a new actor,
    # whose start on a busy 2-core machine takes as long as a scale-up's.
    deadline = time.monotonic() + SCALE_UP_WAIT_S
    while ray_cluster.replica_count() < 2:
        assert time.monotonic() < deadline, (
            f"the killed replica was not replaced: {ray_cluster.app_state()}"
        )
        time.sleep(0.5)


def test_autoscaling_up_under_load_and_back_down(serve_url: str) -> None:
    ray_cluster.wait_for_replicas(2, timeout_s=120)

    async def load_until_scaled_up() -> tuple[float | None, Tally]:
        tally, stop = Tally(), asyncio.Event()
        client = trainer_client(serve_url)
        loops = [
            asyncio.create_task(load_loop(client, 100 + seed, stop, tally, sleep_s=0.5))
            for seed in range(LOAD_CLIENTS)
        ]
        start, scaled_after = time.monotonic(), None
        try:
            while time.monotonic() - start < SCALE_UP_WAIT_S:
                if await asyncio.to_thread(ray_cluster.replica_count) == 3:
                    scaled_after = time.monotonic() - start
                    break
                await asyncio.sleep(0.5)
        finally:
            stop.set()
            await asyncio.wait_for(asyncio.gather(*loops), timeout=120)
            await client.aclose()
        return scaled_after, tally

    scaled_up_after, tally = asyncio.run(load_until_scaled_up())
    assert scaled_up_after is not None, f"no third replica within {SCALE_UP_WAIT_S} s of load"
    assert tally.lost == [], tally.lost[:5]
    replicas = ray_cluster.running_replicas()
    assert len({r.node_id for r in replicas}) == 3, replicas

    # Idle again: back to the minimum after the downscale delay.
    ray_cluster.wait_for_replicas(2, timeout_s=90)
