"""The running compose stack (compose.yaml + deploy/compose.cpu.yaml), exercised for real.

``scripts/compose-e2e.sh`` brings the stack up and then runs this module. Requests go only
to the gateway published on 127.0.0.1; containers are inspected, killed and read with the
Docker SDK; ``docker compose`` itself scales the replicas and runs the trainer. Each check
prints one line; ``--report`` writes every measured fact as JSON (the pytest test reads it).

    python -m tests.deploy.compose_e2e --project P --url http://127.0.0.1:PORT \
        --compose-file compose.yaml --compose-file deploy/compose.cpu.yaml --report r.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docker
import httpx
from docker.models.containers import Container

from tests.hostile_probe import probe_program

REPLICAS_SCALED = 3
LOAD_CLIENTS = 4
LOAD_SECONDS_BEFORE_KILL = 6.0
LOAD_SECONDS_AFTER_KILL = 12.0


def fenced(source: str) -> str:
    return f"Here is my solution.\n```python\n{source}\n```"


def code_item(program: str, tests: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "task": "code",
        "language": "python",
        "completion": fenced(program),
        "tests": tests,
        **extra,
    }


ADD = "def add(a, b):\n    return a + b"
# {gateway} and {rubric} are those containers' addresses on the compose network: services
# that really listen there, reachable from the replica itself but not from its sandbox.
ATTACKS = {
    "connect-gateway": "    import socket\n    socket.create_connection(('{gateway}', 8000), 2)",
    "connect-rubric": "    import socket\n    socket.create_connection(('{rubric}', 8000), 2)",
    "connect-outside": "    import socket\n    socket.create_connection(('1.1.1.1', 53), 2)",
    "resolve-service": "    import socket\n    socket.getaddrinfo('gateway', 8000)",
    "write-app": "    open('/app/escaped.txt', 'w').write('x')",
    "write-root": "    open('/escaped.txt', 'w').write('x')",
    "read-shadow": "    open('/etc/shadow').read()",
}
RIGHT = {"task": "math", "prompt": "What is 2+2?", "completion": "\\boxed{4}", "reference": "4"}
WRONG = {"task": "math", "prompt": "What is 2+2?", "completion": "\\boxed{5}", "reference": "4"}


class CheckFailed(AssertionError):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


@dataclass
class Stack:
    project: str
    url: str
    compose: list[str]
    client: docker.DockerClient = field(default_factory=docker.from_env)

    def containers(self, service: str) -> list[Container]:
        labels = [
            f"com.docker.compose.project={self.project}",
            f"com.docker.compose.service={service}",
        ]
        found: list[Container] = self.client.containers.list(filters={"label": labels})
        return sorted(found, key=lambda c: str(c.name))

    def address(self, service: str) -> str:
        container = self.containers(service)[0]
        networks: dict[str, Any] = container.attrs["NetworkSettings"]["Networks"]
        return str(next(iter(networks.values()))["IPAddress"])

    def health(self, service: str) -> list[str]:
        states = []
        for container in self.containers(service):
            container.reload()
            states.append(str(container.attrs["State"].get("Health", {}).get("Status")))
        return states

    def run_compose(self, *args: str, timeout_s: float) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.compose, *args], capture_output=True, text=True, timeout=timeout_s, check=False
        )

    def post(self, path: str, body: dict[str, Any], timeout_s: float = 300) -> dict[str, Any]:
        response = httpx.post(f"{self.url}{path}", json=body, timeout=timeout_s)
        expect(response.status_code == 200, f"{path}: HTTP {response.status_code} {response.text}")
        result: dict[str, Any] = response.json()
        return result

    def logs(self, tail: int = 40) -> str:
        labels = [f"com.docker.compose.project={self.project}"]
        parts = []
        for container in self.client.containers.list(all=True, filters={"label": labels}):
            text = container.logs(tail=tail).decode(errors="replace")
            parts.append(f"--- {container.name} ({container.status})\n{text}")
        return "\n".join(parts)


def check_ready(stack: Stack) -> dict[str, Any]:
    response = httpx.get(f"{stack.url}/ready", timeout=60)
    body = response.json()
    backends = {name: status["ok"] for name, status in body["backends"].items()}
    expect(response.status_code == 200 and body["ready"] is True, f"/ready: {body}")
    expect(
        backends
        == {
            "math": True,
            "sandbox": True,
            "q": False,
            "llm_verifier": True,
            "canaries": True,
            "queue": True,
        },
        f"every backend but q should work: {body}",
    )
    health = stack.health("verifier")
    expect(bool(health) and all(state == "healthy" for state in health), f"replicas: {health}")
    return {"backends": body["backends"], "replicas": health}


def check_math(stack: Stack) -> dict[str, Any]:
    cases = [
        ("\\boxed{\\frac{1}{2}}", "0.5", 1.0),
        ("\\boxed{3}", "4", -1.0),
        ("The answer is \\boxed{x^2+2x+1}", "(x+1)^2", 1.0),
        ("no answer", "7", -0.5),
    ]
    items = [{"completion": c, "reference": r} for c, r, _ in cases] * 10
    results = stack.post("/score/math", {"items": items})["results"]
    rewards = [result["reward"] for result in results]
    expect(rewards == [reward for _, _, reward in cases] * 10, f"math rewards: {rewards}")
    return {"items": len(items)}


def check_code(stack: Stack) -> dict[str, Any]:
    tests = [{"code": "assert add(1, 2) == 3"}, {"code": "assert add(2, 2) == 4"}]
    addresses = {"gateway": stack.address("gateway"), "rubric": stack.address("rubric")}
    items = [code_item(ADD, tests), code_item("def add(a, b):\n    return a * b", tests)]
    for body in ATTACKS.values():
        program = probe_program(body.format(**addresses))
        items.append(code_item(program, [{"expected": "blocked"}], timeout_s=5))
    results = stack.post("/score/code", {"items": items})["results"]
    expect([r["status"] for r in results] == ["ok"] * len(items), f"code statuses: {results}")
    expect(results[0]["reward"] == 2.0, f"the passing program: {results[0]}")
    expect(results[1]["reward"] == 0.5, f"the half-passing program: {results[1]}")
    for name, result in zip(ATTACKS, results[2:], strict=True):
        expect(result["components"]["tests_passed"] == 1.0, f"{name} escaped: {result}")
    for container in stack.containers("verifier"):
        for path in ("/app/escaped.txt", "/escaped.txt"):
            found = container.exec_run(["test", "-e", path]).exit_code == 0
            expect(not found, f"{path} was written in {container.name}")
    return {"items": len(items), "attacks_blocked": sorted(ATTACKS)}


def check_addon(stack: Stack) -> dict[str, Any]:
    options = {"mode": "addon", "verifier_weight": 0.5}
    right, wrong = stack.post("/score", {"items": [RIGHT, WRONG], "options": options})["results"]
    expect((right["judge"], right["reward"]) == ("rule", 1.0), f"accepted answer: {right}")
    expect(wrong["status"] == "ok" and wrong["judge"] == "verifier", f"rejected answer: {wrong}")
    probability = wrong["components"]["verifier"]
    expect(0.0 <= probability <= 1.0, f"verifier probability: {probability}")
    expect(abs(wrong["reward"] - (-1.0 + 2.0 * probability * 0.5)) < 1e-6, f"reward: {wrong}")
    return {"verifier_probability": probability, "reward": wrong["reward"]}


@dataclass
class LoadLog:
    requests: int = 0
    items: int = 0
    server_errors: int = 0
    lost: int = 0
    # Responses cut off mid-body (the replica died after its header reached the gateway):
    # nginx cannot resend those; the client retries them, as the trainer's client does.
    truncated_retried: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, **counts: int) -> None:
        with self.lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)


def _load_client(url: str, stop: threading.Event, log: LoadLog, seed: int) -> None:
    items = [
        {"task": "math", "completion": f"\\boxed{{{seed + i}}}", "reference": str(seed + i)}
        for i in range(20)
    ]
    items.append(code_item(ADD, [{"code": "assert add(1, 2) == 3"}] * 2))
    expected = [1.0] * 20 + [2.0]
    with httpx.Client(base_url=url, timeout=120) as http:
        while not stop.is_set():
            for _attempt in range(3):
                try:
                    response = http.post("/score", json={"items": items})
                    break
                except httpx.RemoteProtocolError:
                    log.add(truncated_retried=1)
            else:
                log.add(requests=1, items=len(expected), lost=len(expected))
                continue
            log.add(requests=1, items=len(expected))
            if response.status_code >= 500:
                log.add(server_errors=1, lost=len(expected))
                with log.lock:
                    log.errors.append(f"{response.status_code} {response.text[:300]}")
                continue
            rewards = [r["reward"] for r in response.json()["results"]]
            log.add(lost=sum(1 for got, want in zip(rewards, expected, strict=True) if got != want))


def check_scale_and_kill(stack: Stack) -> dict[str, Any]:
    started = time.monotonic()
    scaled = stack.run_compose(
        "up",
        "-d",
        "--no-recreate",
        "--wait",
        "--scale",
        f"verifier={REPLICAS_SCALED}",
        timeout_s=600,
    )
    expect(scaled.returncode == 0, f"scale: {scaled.stdout}{scaled.stderr}")
    health = stack.health("verifier")
    expect(health == ["healthy"] * REPLICAS_SCALED, f"after scaling: {health}")
    scale_s = time.monotonic() - started
    log, stop = LoadLog(), threading.Event()
    clients = [
        threading.Thread(target=_load_client, args=(stack.url, stop, log, 100 * i))
        for i in range(LOAD_CLIENTS)
    ]
    for client in clients:
        client.start()
    time.sleep(LOAD_SECONDS_BEFORE_KILL)
    victim = stack.containers("verifier")[0]
    before_kill = log.requests
    load_started = int(time.time()) - int(LOAD_SECONDS_BEFORE_KILL) - 1
    victim.kill()
    time.sleep(LOAD_SECONDS_AFTER_KILL)
    stop.set()
    for client in clients:
        client.join(timeout=180)
    facts: dict[str, Any] = {
        name: getattr(log, name)
        for name in ("requests", "items", "server_errors", "lost", "truncated_retried")
    }
    gateway = stack.containers("gateway")[0].logs(since=load_started).decode(errors="replace")
    failed_lines = [line for line in gateway.splitlines() if '" 5' in line and "HTTP/1.1" in line]
    facts.update(errors=log.errors[:5], gateway_5xx=failed_lines[:5])
    facts.update(
        scale_s=round(scale_s, 1),
        killed=victim.name,
        requests_before_kill=before_kill,
        clients=LOAD_CLIENTS,
    )
    expect(log.requests > before_kill > 0, f"load did not flow: {facts}")
    expect(log.lost == 0 and log.server_errors == 0, f"lost or failed requests: {facts}")
    return facts


def check_trainer(stack: Stack, outputs: Path) -> dict[str, Any]:
    started = time.monotonic()
    run = stack.run_compose(
        "--profile", "train", "run", "--rm", "--no-deps", "trainer", timeout_s=1200
    )
    expect(run.returncode == 0, f"trainer failed:\n{(run.stdout + run.stderr)[-4000:]}")
    metrics = outputs / "demo-cpu" / "metrics.jsonl"
    rows = [json.loads(line) for line in metrics.read_text().splitlines() if line.strip()]
    steps = sorted({int(row["step"]) for row in rows if "step" in row})
    expect(bool(steps) and max(steps) >= 2, f"GRPO steps in {metrics}: {steps}")
    rewards = [row[key] for row in rows for key in row if key.startswith("reward")]
    expect(bool(rewards), f"no rewards logged in {metrics}: {rows}")
    return {"steps": max(steps), "seconds": round(time.monotonic() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--project", required=True)
    parser.add_argument("--url", required=True, help="the gateway, on 127.0.0.1")
    parser.add_argument("--compose-file", action="append", default=[])
    parser.add_argument("--env-file")
    parser.add_argument("--outputs", type=Path, required=True, help="TRAIN_OUTPUT_DIR")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    compose = ["docker", "compose", "-p", args.project]
    if args.env_file:
        compose += ["--env-file", args.env_file]
    for path in args.compose_file:
        compose += ["-f", path]
    stack = Stack(args.project, args.url, compose)
    checks: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("ready", lambda: check_ready(stack)),
        ("math", lambda: check_math(stack)),
        ("code", lambda: check_code(stack)),
        ("addon", lambda: check_addon(stack)),
        ("scale_and_kill", lambda: check_scale_and_kill(stack)),
        ("trainer", lambda: check_trainer(stack, args.outputs)),
    ]
    report: dict[str, Any] = {}
    failed = False
    for name, check in checks:
        started = time.monotonic()
        try:
            facts = check()
        except Exception as exc:  # any failure: report it, show the containers' logs
            failed = True
            report[name] = {"ok": False, "error": str(exc)[:4000]}
            print(f"FAIL {name}: {exc}", flush=True)
            break
        report[name] = {"ok": True, "seconds": round(time.monotonic() - started, 1), **facts}
        print(f"ok   {name} ({report[name]['seconds']} s): {json.dumps(facts)[:300]}", flush=True)
    if failed:
        print(stack.logs(), flush=True)
    if args.report:
        args.report.write_text(json.dumps(report, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
