"""A replica's 429 through the real nginx gateway (deploy/'s config), on loopback.

A replica whose sandbox queue is full refuses a batch with 429 before starting any of it.
The gateway passes that 429 on with the replica's Retry-After (the client's retry policy
waits), and keeps the replica in its rotation: it is full, not broken.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from harness.gateway import Gateway, find_nginx, running_gateway
from harness.service import ServiceProcess, running_replicas

pytestmark = pytest.mark.skipif(
    find_nginx() is None, reason="nginx is not installed (scripts/system-deps.sh --test)"
)

# One sandbox worker admitting one test: a replica holding one long test is full.
REPLICA_ENV = {
    "VERIFIER_MATH_WORKERS": "1",
    "VERIFIER_SANDBOX_WORKERS": "1",
    "VERIFIER_QUEUED_TESTS_PER_WORKER": "1",
}
HOLD_S = 4.0


def _code(program: str) -> dict[str, Any]:
    item = {
        "language": "python",
        "completion": f"```python\n{program}\n```",
        "tests": [{"stdin": "", "expected": "1"}],
        "timeout_s": 10,
    }
    return {"items": [item]}


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[Gateway, list[ServiceProcess]]]:
    with (
        running_replicas(2, REPLICA_ENV) as replicas,
        running_gateway([r.port for r in replicas]) as gateway,
    ):
        yield gateway, replicas


def _refused(replica: ServiceProcess) -> float:
    text = httpx.get(f"{replica.url}/metrics", timeout=10).text
    found = re.search(r'^verifier_queue_refused_total\{backend="sandbox"\} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def _hold(replica: ServiceProcess) -> threading.Thread:
    """Fill ``replica``'s sandbox queue for HOLD_S, sent to it directly (not the gateway)."""
    # A program of its own each time: a replica would answer a repeat from its run cache.
    body = _code(f"import time\ntime.sleep({HOLD_S})\nprint(1)  # {uuid.uuid4().hex}")

    def send() -> None:
        httpx.post(f"{replica.url}/score/code", json=body, timeout=60).raise_for_status()

    thread = threading.Thread(target=send)
    thread.start()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # until the replica has admitted it
        text = httpx.get(f"{replica.url}/metrics", timeout=10).text
        if re.search(r'^verifier_queue_depth\{backend="sandbox"\} 1\.0$', text, re.M):
            return thread
        time.sleep(0.05)
    raise AssertionError("the holding request was not admitted")


def test_a_full_replicas_429_reaches_the_client_with_retry_after(
    pair: tuple[Gateway, list[ServiceProcess]],
) -> None:
    gateway, (full, _) = pair
    holder = _hold(full)
    refused_before = _refused(full)
    try:
        with httpx.Client(base_url=gateway.url, timeout=60) as http:
            # Both replicas are equally idle to the gateway (the holder bypassed it), so
            # about every other request goes to the full one.
            responses = [http.post("/score/code", json=_code("print(1)")) for _ in range(6)]
    finally:
        holder.join()
    codes = sorted({r.status_code for r in responses})
    assert codes == [200, 429], codes
    refused = [r for r in responses if r.status_code == 429]
    assert all(int(r.headers["Retry-After"]) >= 1 for r in refused)
    assert _refused(full) - refused_before == len(refused)
    assert "temporarily disabled" not in gateway.error_log.read_text(errors="replace")


def test_a_replica_that_refused_stays_in_the_rotation(
    pair: tuple[Gateway, list[ServiceProcess]],
) -> None:
    gateway, replicas = pair
    holders = [_hold(replica) for replica in replicas]
    # A program of its own: one a replica has run already comes from its cache, which a
    # full sandbox does not refuse.
    fresh = _code(f"print(1)  # {uuid.uuid4().hex}")
    try:
        refused = httpx.post(f"{gateway.url}/score/code", json=fresh, timeout=60)
    finally:
        for holder in holders:
            holder.join()
    assert refused.status_code == 429, refused.text
    assert int(refused.headers["Retry-After"]) >= 1
    # Once room frees, every replica scores again: none was marked failed for the 429.
    served = [_served(r) for r in replicas]
    with httpx.Client(base_url=gateway.url, timeout=60) as http:
        codes = [http.post("/score/code", json=_code("print(1)")).status_code for _ in range(6)]
    assert codes == [200] * 6
    assert all(_served(r) > before for r, before in zip(replicas, served, strict=True))


def _served(replica: ServiceProcess) -> float:
    text = httpx.get(f"{replica.url}/metrics", timeout=10).text
    found = re.search(
        r'^verifier_requests_total\{code="200",route="/score/code"\} (\S+)$', text, re.M
    )
    return float(found.group(1)) if found else 0.0
