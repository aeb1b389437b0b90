"""Faults injected into a running service: a sandbox worker killed mid-job, a math worker
stuck for good, the service killed and restarted under a trainer's batch, and an LLM
verifier that accepts connections but answers late or never."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from harness.service import ServiceProcess, free_port
from services.contract.protocol import ScoreResult
from trainer.service_client import AsyncServiceClient, ClientSettings

ServiceFactory = Callable[[dict[str, str]], ServiceProcess]


@pytest.fixture
def start_service() -> Iterator[ServiceFactory]:
    """Private services (faults must not touch the shared one), stopped after the test."""
    started: list[ServiceProcess] = []

    def start(env: dict[str, str]) -> ServiceProcess:
        process = ServiceProcess(env)
        started.append(process)
        process.start()
        wait_ready(process)
        return process

    try:
        yield start
    finally:
        for process in started:
            process.stop()


def wait_ready(process: ServiceProcess, startup_s: float = 120.0) -> None:
    """Like ``ServiceProcess.wait_ready`` but patient with a slow ``/ready``: with a silent
    LLM verifier, /ready waits out the verifier's health probe (3 s) before answering."""
    deadline = time.monotonic() + startup_s
    while time.monotonic() < deadline:
        assert process.process is not None and process.process.poll() is None, "service died"
        try:
            if httpx.get(f"{process.url}/ready", timeout=30).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError(f"service not ready after {startup_s}s")


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, comm) for every process on the host."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        table[int(entry.name)] = (ppid, comm)
    return table


def busy_sandbox_workers(service_pid: int) -> list[int]:
    """Warm sandbox workers of this service that are running a job (have a job child)."""
    table = _processes()

    def descends(pid: int) -> bool:
        while pid > 1:
            if pid == service_pid:
                return True
            pid = table.get(pid, (0, ""))[0]
        return False

    workers = {p for p, (_, comm) in table.items() if comm == "sbx-worker" and descends(p)}
    return [
        p for p in workers if table[p][0] not in workers and any(table[c][0] == p for c in workers)
    ]


def _code(completion: str, test: str, **extra: Any) -> dict[str, Any]:
    return {
        "task": "code",
        "language": "python",
        "completion": f"```python\n{completion}\n```",
        "tests": [{"code": test}],
        **extra,
    }


# How long a worker must stay busy to be the slow job's (its job sleeps 30 s).
BUSY_WINDOW_S = 3.0


def test_sandbox_worker_killed_mid_job(start_service: ServiceFactory) -> None:
    service = start_service({"VERIFIER_SANDBOX_WORKERS": "2", "VERIFIER_MATH_WORKERS": "1"})
    slow = _code("import time\ntime.sleep(30)", "pass", id="killed", timeout_s=20)
    fine = _code("def f():\n    return 3", "assert f() == 3", id="fine")
    with httpx.Client(base_url=service.url, timeout=120) as client:
        pending: dict[str, httpx.Response] = {}
        sender = threading.Thread(
            target=lambda: pending.update(r=client.post("/score", json={"items": [slow, fine]}))
        )
        started = time.monotonic()
        sender.start()
        # Only the slow job's worker stays busy: the other item's job ends well within the
        # window on a loaded machine, and killing its worker too would fail it as well.
        busy_since: dict[int, float] = {}
        victims: list[int] = []
        while not victims and time.monotonic() - started < 30:
            time.sleep(0.1)
            now = time.monotonic()
            busy = busy_sandbox_workers(service.pid())
            busy_since = {pid: busy_since.get(pid, now) for pid in busy}
            victims = [pid for pid, since in busy_since.items() if now - since >= BUSY_WINDOW_S]
        assert victims, "no sandbox worker stayed busy under the service"
        for pid in victims:
            os.kill(pid, signal.SIGKILL)
        sender.join(timeout=120)
        killed, other = pending["r"].json()["results"]
        assert time.monotonic() - started < 25, "the killed job must not wait out its timeout"
        assert killed["status"] == "error" and killed["reward"] is None, killed
        assert "worker failed during the job" in killed["detail"], killed["detail"]
        assert (other["status"], other["reward"]) == ("ok", 2.0), other
        # Later items run on a replacement worker.
        later = client.post("/score", json={"items": [fine] * 6}).json()["results"]
        assert [(r["status"], r["reward"]) for r in later] == [("ok", 2.0)] * 6
        assert client.get("/ready").json()["backends"]["sandbox"]["ok"] is True


# Passes the cheap guards, then keeps sympy busy far longer than this test runs.
STUCK = "\\prod_{k=1}^{5000} (x+k)"


def test_stuck_math_worker_while_other_requests_are_served(start_service: ServiceFactory) -> None:
    service = start_service(
        {
            "VERIFIER_MATH_WORKERS": "2",
            "VERIFIER_MATH_TIMEOUT_S": "4",
            "VERIFIER_BATCH_TIMEOUT_S": "1",
        }
    )
    stuck = {"task": "math", "id": "stuck", "completion": f"\\boxed{{{STUCK}}}", "reference": "1"}
    outcome: dict[str, Any] = {}

    def send_stuck() -> None:
        started = time.monotonic()
        outcome["response"] = httpx.post(
            f"{service.url}/score", json={"items": [stuck]}, timeout=120
        )
        outcome["seconds"] = time.monotonic() - started

    sender = threading.Thread(target=send_stuck)
    sender.start()
    time.sleep(1.0)  # one of the two math workers is now busy for good
    with httpx.Client(base_url=service.url, timeout=60) as client:
        for n in range(2, 8):  # symbolic answers, each needing the remaining worker
            started = time.monotonic()
            item = {  # a trigonometric factor: the numeric probe leaves these to sympy
                "task": "math",
                "completion": f"\\boxed{{\\frac{{{n}}}{{\\sqrt{{2}}}}\\cos 2x}}",
                "reference": f"\\frac{{{n}\\sqrt{{2}}}}{{2}}\\cos(2x)",
            }
            result = client.post("/score", json={"items": [item]}).json()["results"][0]
            assert (result["status"], result["reward"]) == ("ok", 1.0), result
            assert "symbolic" in result["detail"]
            assert time.monotonic() - started < 30
        assert client.get("/health").status_code == 200
    sender.join(timeout=120)
    # The stuck item itself comes back when its own compute deadline (4 s of its worker's
    # CPU) runs out, labelled; the batch budget (1 s) does not apply to math items.
    result = outcome["response"].json()["results"][0]
    assert result["status"] == "timeout" and "exceeded 4s of CPU" in result["detail"], result
    assert 4 <= outcome["seconds"] < 120


def test_service_restarted_under_a_trainer_batch(caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    replica = ServiceProcess({"VERIFIER_MATH_WORKERS": "2"}, port=port)
    # Unique symbolic comparisons (a trigonometric factor: the numeric probe leaves these to
    # sympy), so the batch takes a few seconds and is in flight.
    items = [
        {
            "task": "math",
            "id": f"item-{i}",
            "completion": f"\\boxed{{\\frac{{{i}}}{{\\sqrt{{3}}}}\\cos 2x}}",
            "reference": f"\\frac{{{i}\\sqrt{{3}}}}{{3}}\\cos(2x)" if i % 3 else f"{i}\\cos(2x)",
        }
        for i in range(1, 601)
    ]
    client = AsyncServiceClient(
        ClientSettings(
            urls=(replica.url,),
            retries=40,
            backoff_s=0.2,
            backoff_max_s=1.0,
            connect_timeout_s=1.0,
            max_batch=150,
        )
    )
    outcome: dict[str, Any] = {}

    def train_step() -> None:
        async def run() -> list[ScoreResult]:
            try:
                return await client.score(items, {})
            finally:
                await client.aclose()

        try:
            outcome["results"] = asyncio.run(run())
        except Exception as exc:  # reported by the assertion below
            outcome["error"] = exc

    caplog.set_level(logging.WARNING, logger="services.contract.client.http")
    try:
        replica.start()
        replica.wait_ready()
        step = threading.Thread(target=train_step)
        step.start()
        time.sleep(1.0)
        assert step.is_alive(), "the batch finished before the restart: make it bigger"
        replica.kill()  # SIGKILL mid-batch, as a crash would
        time.sleep(0.5)
        replica.start()
        replica.wait_ready()
        step.join(timeout=240)
        assert not step.is_alive()
    finally:
        replica.stop()
    assert "error" not in outcome, outcome.get("error")
    results = outcome["results"]
    # Every item scored exactly once, in order, with the right verdict.
    assert [r.id for r in results] == [item["id"] for item in items]
    for i, result in enumerate(results, start=1):
        assert result.status == "ok", result
        assert result.reward == (1.0 if i % 3 else -1.0), result
    assert any("retrying" in r.getMessage() for r in caplog.records)


class SlowVerifier:
    """A loopback HTTP server that accepts /v1/* requests and answers after ``delay_s``
    (never, when None). It counts the requests it received."""

    def __init__(self, delay_s: float | None) -> None:
        self.delay_s = delay_s
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.requests: list[str] = []
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._serve(),))

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            self.requests.append(head.split(b" ", 2)[1].decode())
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            if self.delay_s is None:
                await asyncio.sleep(3600)
            await asyncio.sleep(self.delay_s or 0)
            body = b'{"object": "list", "data": [{"id": "slow-model"}]}'
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
        self._ready.set()
        await self._stop.wait()
        server.close()
        handlers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in handlers:
            task.cancel()
        await asyncio.gather(*handlers, return_exceptions=True)

    def __enter__(self) -> SlowVerifier:
        self._thread.start()
        assert self._ready.wait(10), "slow verifier did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)
        self._loop.close()


@pytest.mark.parametrize("delay_s", [None, 4.0], ids=["never-answers", "answers-late"])
def test_slow_verifier_times_out_and_fallbacks_are_labelled(
    start_service: ServiceFactory, delay_s: float | None
) -> None:
    right = {"task": "math", "prompt": "2+2?", "completion": "\\boxed{4}", "reference": "4"}
    wrong = {"task": "math", "prompt": "2+2?", "completion": "\\boxed{5}", "reference": "4"}
    rubric = {"task": "rubric", "prompt": "Why?", "completion": "Because.", "reference": 0.5}
    with SlowVerifier(delay_s) as verifier:
        env = {
            "VERIFIER_LLM_URL": verifier.url,
            "VERIFIER_LLM_TIMEOUT_S": "1",
            "VERIFIER_MATH_WORKERS": "1",
        }
        replica = start_service(env)
        with httpx.Client(base_url=replica.url, timeout=120) as client:
            started = time.monotonic()
            body = {"items": [right, wrong, rubric], "options": {"mode": "addon"}}
            results = client.post("/score", json=body).json()["results"]
            elapsed = time.monotonic() - started
            # Meanwhile rule-only scoring is unaffected.
            plain = client.post("/score", json={"items": [right]}).json()["results"][0]
            ready = client.get("/ready").json()["backends"]["llm_verifier"]
    # The service reached the slow server (so its timeouts fired, not a refused connection).
    assert any(path.startswith("/v1/") for path in verifier.requests), verifier.requests
    assert elapsed < 60, f"timeouts should bound the wait; took {elapsed:.1f}s"
    ok, fell_back, no_rubric = results
    assert (ok["status"], ok["reward"], ok["judge"]) == ("ok", 1.0, "rule")
    assert (fell_back["status"], fell_back["reward"]) == ("unavailable", -1.0), fell_back
    assert "LLM verifier unavailable" in fell_back["detail"], fell_back["detail"]
    assert (no_rubric["status"], no_rubric["reward"]) == ("unavailable", None), no_rubric
    assert (plain["status"], plain["reward"]) == ("ok", 1.0)
    assert ready["ok"] is False
