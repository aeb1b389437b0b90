"""Three real replicas behind nginx with deploy/'s gateway config, on loopback.

Sustained load goes through the gateway while one replica is SIGKILLed and later
restarted on the same port. Every request must come back 200 with the right rewards
(nothing lost: the gateway resends the batches the dead replica held), the survivors must
take the load, and the restarted replica must get traffic again.

One window no proxy can close: a replica killed between writing its response header and
its body. nginx has already passed the header on, so it cannot resend; the client sees a
truncated response and retries it (as the trainer's client does). The test allows that
for the few responses in flight at the kill, and counts it.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from harness.compose_files import ROOT
from harness.gateway import Gateway, find_nginx, running_gateway
from harness.service import ServiceProcess, running_replicas

pytestmark = pytest.mark.skipif(
    find_nginx() is None, reason="nginx is not installed (scripts/system-deps.sh --test)"
)

# One worker of each kind per replica: three replicas share this machine's two cores. Blank
# keys, as compose passes a blank .env, go through the image's entrypoint like in compose.
REPLICA_ENV = {
    "VERIFIER_MATH_WORKERS": "1",
    "VERIFIER_SANDBOX_WORKERS": "1",
    "VERIFIER_API_KEY": "",
    "VERIFIER_LLM_API_KEY": "",
    # Far above any real comparison, so a loaded shared CPU never turns a verdict into a timeout.
    "VERIFIER_MATH_TIMEOUT_S": "30",
    # This scenario is about a killed replica, not backpressure: one sandbox worker per replica
    # and 1.5 s programs would otherwise pass the 2 s wait bound and answer 429 (that path is
    # tests/deploy/test_gateway_backpressure.py's), nor would a second 1.5 s batch fit in the
    # 1.5 s projection bound.
    "VERIFIER_MAX_QUEUE_WAIT_S": "60",
    "VERIFIER_MAX_PROJECTED_WAIT_S": "0",
}
ENTRYPOINT = (str(ROOT / "deploy" / "verifier-entrypoint.sh"),)
MATH_CLIENTS = 6
CODE_CLIENTS = 2
# Batches that hold a sandbox worker for 1.5 s, sent just before the kill, two per replica
# on average (least_conn): the victim surely holds one when it dies. Resending a request
# that was already sent is the case that needs `non_idempotent`.
LONG_REQUESTS = 6
MAX_REQUESTS_PER_CLIENT = 3000
SCORE_ROUTES = ("/score", "/score/math", "/score/code")


@dataclass
class LoadLog:
    ok: int = 0
    # Responses cut off mid-body: the replica died after its header reached the gateway.
    truncated: int = 0
    failures: list[str] = field(default_factory=list)


def math_request(rng: random.Random) -> tuple[dict[str, Any], list[float]]:
    """A batch of unique sums (the math cache must not answer), half right, half wrong."""
    items, expected = [], []
    for index in range(16):
        a, b = rng.randrange(10**6), rng.randrange(10**6)
        right = index % 2 == 0
        shown = f"\\frac{{{2 * (a + b)}}}{{2}}" if right else str(a + b + 1)
        items.append({"id": index, "completion": f"So \\boxed{{{shown}}}", "reference": str(a + b)})
        expected.append(1.0 if right else -1.0)
    return {"items": items}, expected


def code_request(rng: random.Random, sleep_s: float) -> tuple[dict[str, Any], list[float]]:
    value = rng.randrange(10**6)
    program = f"```python\nimport time\ntime.sleep({sleep_s})\nprint({value})\n```"
    item = {
        "language": "python",
        "completion": program,
        "tests": [{"stdin": "", "expected": str(value)}],
        "timeout_s": 10,
    }
    return {"items": [item]}, [2.0]  # pass fraction 1 + the all-pass bonus


def check_response(response: httpx.Response, expected: list[float]) -> str | None:
    if response.status_code != 200:
        return f"HTTP {response.status_code}: {response.text[:200]}"
    results = response.json()["results"]
    rewards = [result["reward"] for result in results]
    statuses = {result["status"] for result in results}
    if rewards != expected or statuses != {"ok"}:
        return f"wrong results: {rewards} / {statuses} for {expected}"
    return None


async def send(
    http: httpx.AsyncClient, path: str, request: tuple[dict[str, Any], list[float]], log: LoadLog
) -> None:
    body, expected = request
    try:
        try:
            response = await http.post(path, json=body)
        except httpx.RemoteProtocolError:
            # No proxy can resend once the response has started (nginx already sent the
            # header on); the trainer's client retries this, so the test does it once too.
            log.truncated += 1
            response = await http.post(path, json=body)
    except httpx.HTTPError as exc:  # anything else the gateway lets through is a loss
        log.failures.append(f"{type(exc).__name__}: {exc}")
        return
    problem = check_response(response, expected)
    if problem is None:
        log.ok += 1
    else:
        log.failures.append(problem)


async def client_loop(
    http: httpx.AsyncClient, code: bool, seed: int, stop: asyncio.Event, log: LoadLog
) -> None:
    rng = random.Random(seed)
    for _ in range(MAX_REQUESTS_PER_CLIENT):
        if stop.is_set():
            return
        if code:
            await send(http, "/score/code", code_request(rng, 0.2), log)
        else:
            await send(http, "/score/math", math_request(rng), log)


def scored_requests(replica: ServiceProcess) -> int:
    """Scoring requests this replica process answered, from its own /metrics."""
    text = httpx.get(f"{replica.url}/metrics", timeout=10).text
    total = 0.0
    for route, count in re.findall(
        r'^verifier_requests_total\{code="200",route="([^"]+)"\} ([0-9.e+]+)$', text, re.M
    ):
        if route in SCORE_ROUTES:
            total += float(count)
    return int(total)


async def wait_until(condition_s: float, check: Any) -> bool:
    """Poll ``check`` (a blocking callable) every 0.2 s, at most ``condition_s`` seconds."""
    deadline = time.monotonic() + condition_s
    while time.monotonic() < deadline:
        if await asyncio.to_thread(check):
            return True
        await asyncio.sleep(0.2)
    return False


async def run_scenario(gateway: Gateway, replicas: list[ServiceProcess]) -> dict[str, Any]:
    victim, survivors = replicas[1], [replicas[0], replicas[2]]
    stop, log = asyncio.Event(), LoadLog()
    facts: dict[str, Any] = {}
    # No client-side retries: a request the gateway fails to place is a failure here.
    async with httpx.AsyncClient(base_url=gateway.url, timeout=120) as http:
        clients = [
            asyncio.create_task(client_loop(http, seed < CODE_CLIENTS, seed, stop, log))
            for seed in range(MATH_CLIENTS + CODE_CLIENTS)
        ]
        try:
            await asyncio.sleep(3)
            facts["before_kill"] = [await asyncio.to_thread(scored_requests, r) for r in replicas]
            rng = random.Random(1000)
            clients += [
                asyncio.create_task(send(http, "/score/code", code_request(rng, 1.5), log))
                for _ in range(LONG_REQUESTS)
            ]
            await asyncio.sleep(0.7)
            victim.kill()
            facts["killed_at_ok"] = log.ok
            at_kill = [await asyncio.to_thread(scored_requests, r) for r in survivors]
            await asyncio.sleep(4)
            after = [await asyncio.to_thread(scored_requests, r) for r in survivors]
            facts["survivors_absorbed"] = [b - a for a, b in zip(at_kill, after, strict=True)]
            facts["ok_while_down"] = log.ok - facts["killed_at_ok"]
            victim.start()
            await asyncio.to_thread(victim.wait_ready)
            # The gateway retries a failed server after fail_timeout (5 s): bounded wait.
            facts["rejoined"] = await wait_until(45, lambda: scored_requests(victim) >= 3)
        finally:
            stop.set()
            await asyncio.wait_for(asyncio.gather(*clients), timeout=150)
    facts["ok"], facts["failures"], facts["truncated"] = log.ok, log.failures, log.truncated
    return facts


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Gateway, list[ServiceProcess]]]:
    with (
        running_replicas(3, REPLICA_ENV, wrapper=ENTRYPOINT) as replicas,
        running_gateway([r.port for r in replicas]) as gateway,
    ):
        yield gateway, replicas


def test_gateway_spreads_batches_over_every_replica(
    cluster: tuple[Gateway, list[ServiceProcess]],
) -> None:
    gateway, replicas = cluster
    before = [scored_requests(r) for r in replicas]
    rng = random.Random(7)
    with httpx.Client(base_url=gateway.url, timeout=60) as http:
        for _ in range(30):
            body, expected = math_request(rng)
            assert check_response(http.post("/score/math", json=body), expected) is None
    served = [scored_requests(r) - b for r, b in zip(replicas, before, strict=True)]
    assert sum(served) == 30 and all(count > 0 for count in served), served


def test_gateway_keeps_metrics_per_replica(cluster: tuple[Gateway, list[ServiceProcess]]) -> None:
    gateway, _ = cluster
    assert httpx.get(f"{gateway.url}/metrics", timeout=10).status_code == 404


def test_killing_a_replica_mid_load_loses_no_request(
    cluster: tuple[Gateway, list[ServiceProcess]],
) -> None:
    gateway, replicas = cluster
    victim = replicas[1]
    facts = asyncio.run(asyncio.wait_for(run_scenario(gateway, replicas), timeout=170))

    assert facts["failures"] == [], (facts["failures"][:5], len(facts["failures"]))
    # Only a response the victim was writing at the instant of the kill can be cut off.
    assert facts["truncated"] <= 2, facts
    assert facts["ok"] >= 50, facts
    assert all(count > 0 for count in facts["before_kill"]), facts
    # While the victim is down, the two survivors answer everything.
    assert facts["ok_while_down"] >= 10 and all(n > 0 for n in facts["survivors_absorbed"]), facts
    assert facts["rejoined"], f"restarted replica got no traffic: {facts}"

    # The access log shows the gateway resending requests from the victim to a survivor,
    # and the error log that some were already in flight on it (the non_idempotent case).
    retried = [
        line
        for line in gateway.access_log.read_text().splitlines()
        if f"127.0.0.1:{victim.port}, " in line and " 200 " in line
    ]
    assert retried, "no request was retried away from the killed replica"
    errors = gateway.error_log.read_text()
    cut_off = [
        line
        for line in errors.splitlines()
        if f":{victim.port}/" in line and ("prematurely closed" in line or "reset by peer" in line)
    ]
    assert cut_off, f"no in-flight request was cut off:\n{errors[-2000:]}"
