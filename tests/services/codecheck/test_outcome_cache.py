"""Runs are reused across requests: a later request's identical (language, program, tests,
limits) item is not run again; anything that changes the verdict is a different run, and
a run a loaded machine could have changed (a wall-clock timeout) is never reused. Through
the real service and sandbox."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

import httpx

CPU_S = 0.4


def _program(body: str) -> str:
    # A nonce: no other test of the session sends this program.
    return f"```python\n# {uuid.uuid4().hex}\n{body}```"


SLOW = (
    "import time\n\n\ndef f(x):\n"
    f"    end = time.process_time() + {CPU_S}\n"
    "    while time.process_time() < end:\n        pass\n"
    "    return x + 1\n"
)


def _item(completion: str, **extra: Any) -> dict[str, Any]:
    return {
        "task": "code",
        "language": "python",
        "completion": completion,
        "tests": [{"code": f"assert f({x}) == {x + 1}"} for x in range(2)],
        **extra,
    }


def _score(client: httpx.Client, item: dict[str, Any], **options: Any) -> tuple[Any, float]:
    started = time.monotonic()
    response = client.post("/score", json={"items": [item], "options": options})
    assert response.status_code == 200, response.text
    return response.json()["results"][0], time.monotonic() - started


def _hits(client: httpx.Client) -> float:
    found = re.search(
        r'^verifier_code_cache_total\{result="hit"\} (\S+)$', client.get("/metrics").text, re.M
    )
    return float(found.group(1)) if found else 0.0


def test_an_identical_item_of_a_later_request_is_not_run_again(client: httpx.Client) -> None:
    item = _item(_program(SLOW))
    first, cold = _score(client, item)
    hits = _hits(client)
    second, warm = _score(client, item)
    assert first["components"]["tests_passed"] == second["components"]["tests_passed"] == 2.0
    assert (second["reward"], second["detail"]) == (first["reward"], first["detail"])
    assert _hits(client) == hits + 1
    # The first request ran two tests of CPU_S each; the second ran nothing.
    assert cold >= 2 * CPU_S
    assert warm < CPU_S, (cold, warm)


def test_whatever_changes_the_verdict_is_another_run(client: httpx.Client) -> None:
    program = _program(SLOW)
    _score(client, _item(program))
    hits = _hits(client)
    wrong = _item(program, tests=[{"code": "assert f(1) == 5"}, {"code": "assert f(2) == 5"}])
    result, _ = _score(client, wrong)
    assert result["components"]["tests_passed"] == 0.0
    tight, _ = _score(client, _item(program, timeout_s=CPU_S / 4))
    assert tight["components"]["tests_passed"] == 0.0 and "timeout" in tight["detail"]
    _score(client, _item(program), every_test=True)
    assert _hits(client) == hits


def test_a_wall_clock_timeout_is_never_reused(client: httpx.Client) -> None:
    sleeper = _item(_program("import time\ntime.sleep(30)\n"), timeout_s=0.2)
    hits = _hits(client)
    for _ in range(2):
        result, elapsed = _score(client, sleeper)
        assert "wall-clock limit of 0.6 s exceeded" in result["detail"]
        assert elapsed >= 0.6
    assert _hits(client) == hits
