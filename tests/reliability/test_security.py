"""Auth on every scoring route, secrets kept out of logs and answers, and the sandbox's
isolation probes while the service is busy with concurrent math and code load."""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from harness.service import ServiceProcess, free_port
from tests.conftest import CANARY
from tests.hostile_probe import probe_program
from tests.services.codecheck.test_code_api import ATTACKS
from tests.services.codecheck.test_code_api import _fenced as fenced

API_KEY = "sk-verifier-7c1e4a9b2d-do-not-leak"
LLM_KEY = "sk-llm-55aa0f3e91-do-not-leak"
K4_LICENCE = b"k4-licence-body-3b8e1d0c7a-do-not-leak"
KC_LICENCE = b"kc-licence-body-a4f2e6d19c-do-not-leak"
SECRETS = [
    API_KEY,
    LLM_KEY,
    K4_LICENCE.decode(),
    KC_LICENCE.decode(),
    base64.b64encode(K4_LICENCE).decode(),
    base64.b64encode(KC_LICENCE).decode(),
]
SCORING_ROUTES: dict[str, dict[str, Any]] = {
    "/score": {"items": [{"task": "math", "completion": "\\boxed{1}", "reference": "1"}]},
    "/score/math": {"items": [{"completion": "\\boxed{1}", "reference": "1"}]},
    "/score/code": {
        "items": [
            {"language": "python", "completion": fenced("x = 1"), "tests": [{"code": "assert x"}]}
        ]
    },
    "/score/rubric": {"items": [{"completion": "ok", "reference": 0.5}]},
    "/grade": {"answer": "\\boxed{1}", "reference": "1"},
    "/get_reward": {"query": ["\\boxed{1}"], "prompts": [""], "labels": ["1"]},
}


@pytest.fixture(scope="module")
def secret_service() -> Iterator[ServiceProcess]:
    """A service holding every kind of secret, logging at debug level to a file we read.

    The LLM verifier URL is a loopback port nobody listens on, so the verifier client
    really sends its key (and fails), and rubric/addon items take their fallback paths.
    """
    env = {
        "VERIFIER_API_KEY": API_KEY,
        "VERIFIER_LLM_URL": f"http://127.0.0.1:{free_port()}",
        "VERIFIER_LLM_API_KEY": LLM_KEY,
        "VERIFIER_LLM_TIMEOUT_S": "2",
        "VERIFIER_MATH_WORKERS": "1",
        "KDB_K4LICENSE_B64": base64.b64encode(K4_LICENCE).decode(),
        "KDB_LICENSE_B64": base64.b64encode(KC_LICENCE).decode(),
    }
    service = ServiceProcess(env, log_level="debug")
    try:
        service.start()
        service.wait_ready()
        yield service
    finally:
        service.stop()


def _post(service: ServiceProcess, route: str, body: Any, **headers: str) -> httpx.Response:
    return httpx.post(f"{service.url}{route}", json=body, headers=headers, timeout=60)


@pytest.mark.parametrize("route", sorted(SCORING_ROUTES))
def test_every_scoring_route_requires_the_key(secret_service: ServiceProcess, route: str) -> None:
    body = SCORING_ROUTES[route]
    basic_key = {"Authorization": f"Basic {base64.b64encode(f'u:{API_KEY}'.encode()).decode()}"}
    refused = [
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Bearer {API_KEY[:-1]}"},  # a prefix of the key
        {"Authorization": f"Bearer {API_KEY}x"},
        {"Authorization": f"Basic {base64.b64encode(f'u:{API_KEY}x'.encode()).decode()}"},
        {"Authorization": f"Basic {base64.b64encode(f'{API_KEY}:'.encode()).decode()}"},
        {"Authorization": API_KEY},
        {"X-API-Key": API_KEY},
    ]
    # OpenRLHF can only send credentials in the URL (Basic); /get_reward alone takes them.
    if route == "/get_reward":
        assert _post(secret_service, route, body, **basic_key).status_code == 200
    else:
        refused.append(basic_key)
    for headers in refused:
        response = _post(secret_service, route, body, **headers)
        assert response.status_code == 401, (headers, response.status_code)
        assert response.headers["www-authenticate"] == "Bearer"
    accepted = _post(secret_service, route, body, Authorization=f"Bearer {API_KEY}")
    assert accepted.status_code == 200, accepted.text


def test_health_needs_no_key(secret_service: ServiceProcess) -> None:
    assert httpx.get(f"{secret_service.url}/health").status_code == 200


def test_secrets_never_appear_in_answers_or_logs(secret_service: ServiceProcess) -> None:
    auth = {"Authorization": f"Bearer {API_KEY}"}
    answers: list[str] = []
    leaky_code = fenced(
        "import os, glob\n"
        "print(sorted(os.environ.items()))\n"
        "for path in glob.glob('/tmp/**', recursive=True) + glob.glob('/proc/*/environ'):\n"
        "    try:\n        print(path, open(path).read()[:200])\n"
        "    except Exception as exc:\n        print(path, exc)"
    )
    batch = {
        "items": [
            {"task": "math", "prompt": "2+2", "completion": "\\boxed{5}", "reference": "4"},
            {"task": "rubric", "prompt": "Explain.", "completion": "Because.", "reference": 0.7},
            {
                "task": "code",
                "language": "python",
                "completion": leaky_code,
                "tests": [{"expected": "x"}],
            },
            {
                "task": "code",
                "language": "q",
                "completion": "```q\nshow getenv`QLIC\n```",
                "tests": [{"expected": "x"}],
            },
        ],
        "options": {"mode": "addon"},
    }
    for mode in ("addon", "mixed", "verifier_only"):
        batch["options"] = {"mode": mode}
        response = httpx.post(f"{secret_service.url}/score", json=batch, headers=auth, timeout=120)
        assert response.status_code == 200
        answers.append(response.text)
    grade = {"answer": "5", "reference": "4", "mode": "mixed"}
    answers.append(_post(secret_service, "/grade", grade, **auth).text)
    answers.append(_post(secret_service, "/score", {"items": 1}, **auth).text)  # a 422
    answers.append(_post(secret_service, "/score", batch, Authorization="Bearer nope").text)
    for path in ("/ready", "/metrics", "/openapi.json", "/docs", "/health"):
        answers.append(httpx.get(f"{secret_service.url}{path}", timeout=30).text)
    # The fallbacks really happened, so the verifier's key was in use while these ran.
    assert "LLM verifier unavailable" in answers[0]
    time.sleep(0.5)  # let the last log lines reach the file
    log = Path(secret_service.log.name).read_text(encoding="utf-8", errors="replace")
    assert '"POST /grade HTTP/1.1" 200' in log, "the log should hold this test's requests"
    for secret in SECRETS:
        for text in answers:
            assert secret not in text
        assert secret not in log, f"a secret reached the service log: {secret[:12]}…"


# --------------------------------------------------------------------------- under load


def _load(url: str, stop: threading.Event, failures: list[str], kind: str) -> None:
    """Keep the service busy with math or code batches until ``stop``; record anomalies."""
    with httpx.Client(base_url=url, timeout=120) as client:
        n = 0
        while not stop.is_set():
            n += 1
            items: list[dict[str, Any]]
            if kind == "math":
                items = [
                    {
                        "task": "math",
                        "completion": f"\\boxed{{\\frac{{{i}}}{{{n}}}}}",
                        "reference": f"{i}/{n}",
                    }
                    for i in range(1, 30)
                ]
            else:
                items = [
                    {
                        "task": "code",
                        "language": "python",
                        "completion": fenced(f"def f():\n    return {i}"),
                        "tests": [{"code": f"assert f() == {i}"}],
                    }
                    for i in range(4)
                ]
            response = client.post("/score", json={"items": items})
            if response.status_code != 200:
                failures.append(f"{kind}: HTTP {response.status_code}")
                continue
            results = response.json()["results"]
            bad = [
                r
                for r in results
                if r["status"] != "ok"
                or r["components"]["correct" if kind == "math" else "tests_passed"] != 1.0
            ]
            if len(results) != len(items) or bad:
                failures.append(f"{kind}: {len(results)} results, {bad[:1]}")


def test_isolation_probes_hold_under_concurrent_load(service_url: str) -> None:
    port = int(service_url.rsplit(":", 1)[1])
    stop = threading.Event()
    failures: list[str] = []
    workers = [
        threading.Thread(target=_load, args=(service_url, stop, failures, kind))
        for kind in ("math", "math", "code", "code")
    ]
    for worker in workers:
        worker.start()
    try:
        time.sleep(1.0)  # the load is running before the probes arrive
        items = []
        for name in sorted(ATTACKS):
            body = ATTACKS[name].replace("PORT", str(port)).replace("CANARY", repr(CANARY))
            program = probe_program(body)
            items.append(
                {
                    "task": "code",
                    "id": name,
                    "language": "python",
                    "timeout_s": 3,
                    "completion": fenced(program),
                    "tests": [{"expected": "blocked"}],
                }
            )
        for _ in range(3):  # several rounds, each racing the load
            response = httpx.post(f"{service_url}/score", json={"items": items}, timeout=120)
            assert response.status_code == 200
            for result in response.json()["results"]:
                assert result["components"]["tests_passed"] == 1.0, (result["id"], result["detail"])
    finally:
        stop.set()
        for worker in workers:
            worker.join(timeout=120)
    assert not failures, failures[:5]
