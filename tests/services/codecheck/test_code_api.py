"""The code task through the real service: rewards, options, and hostile programs."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import API_KEY, CANARY, SMALL_TEST_CEILING, SMALL_TEST_LIMIT
from tests.hostile_probe import probe_program

REPO = Path(__file__).resolve().parents[3]


def _code(completion: str, tests: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"task": "code", "language": "python", "completion": completion, "tests": tests, **extra}


def _fenced(source: str) -> str:
    return f"Here is my solution.\n```python\n{source}\n```"


ADD = _fenced("def add(a, b):\n    return a + b")


def test_rewards_follow_the_pass_fraction_and_perfect_bonus(client: httpx.Client) -> None:
    tests = [{"code": "assert add(1, 2) == 3"}, {"code": "assert add(2, 2) == 4"}]
    wrong = _fenced("def add(a, b):\n    return a * b")
    items = [
        _code(ADD, tests),
        _code(wrong, tests),
        _code(ADD, [*tests, {"code": "assert add(0, 0) == 1"}]),
        _code("I cannot solve this.", tests),
    ]
    results = client.post("/score", json={"items": items}).json()["results"]
    perfect, half, partial, empty = results
    assert (perfect["status"], perfect["reward"]) == ("ok", 2.0)
    assert perfect["components"]["tests_passed"] == 2.0
    assert perfect["extracted"] == "def add(a, b):\n    return a + b"
    assert half["reward"] == pytest.approx(0.5) and "1/2 tests passed" in half["detail"]
    assert partial["reward"] == pytest.approx(2 / 3)
    assert (empty["status"], empty["reward"]) == ("ok", -0.5)
    assert "no python code" in empty["detail"]


def test_honest_exact_rationals_and_decimals_pass(client: httpx.Client) -> None:
    """Values are compared outside the program as plain data: Fraction and Decimal are
    plain data too, so an honest program returning them is not failed for its type."""
    program = _fenced(
        "from fractions import Fraction\nfrom decimal import Decimal\n"
        "def half(x):\n    return Fraction(x, 2)\n"
        "def tenth():\n    return Decimal('0.1')\n"
    )
    tests = [
        {"code": "from fractions import Fraction\nassert half(1) == Fraction(1, 2)"},
        {"code": "assert half(3) == 1.5"},
        {"code": "from decimal import Decimal\nassert tenth() == Decimal('0.1')"},
        {"code": "assert half(1) < 1"},
    ]
    wrong = _fenced("from fractions import Fraction\ndef half(x):\n    return Fraction(x, 3)")
    right, bad = client.post(
        "/score", json={"items": [_code(program, tests), _code(wrong, tests[:2])]}
    ).json()["results"]
    assert (right["status"], right["reward"]) == ("ok", 2.0), right["detail"]
    assert (bad["status"], bad["reward"]) == ("ok", 0.0), bad["detail"]


def test_stdin_tests_and_options(client: httpx.Client) -> None:
    program = "<answer>print(sum(map(int, input().split())))</answer>"
    tests = [{"stdin": "1 2\n", "expected": "3"}, {"stdin": "5 5", "expected": "10\n"}]
    options = {"base_weight": 2.0, "perfect_bonus": 0.5, "perfect_weight": 2.0}
    body = {"items": [{"completion": program, "language": "python", "tests": tests}]}
    result = client.post("/score/code", json={**body, "options": options}).json()["results"][0]
    assert result["task"] == "code" and result["reward"] == pytest.approx(2.0 + 1.0)


def test_max_tests_and_timeout(client: httpx.Client) -> None:
    # 0.6 s of CPU: the timeout is CPU time (a sleep would pass up to the wall-clock backstop).
    slow = _fenced(
        "import time\ndef f():\n    end = time.process_time() + 0.6\n"
        "    while time.process_time() < end:\n        pass\n    return 1"
    )
    tests = [{"code": "assert f() == 1"}] * 3 + [{"code": "assert False"}] * 5
    short = _code(slow, tests, max_tests=2, timeout_s=0.3)
    result = client.post("/score/code", json={"items": [short]}).json()["results"][0]
    assert result["components"]["tests_total"] == 2.0
    assert result["components"]["tests_passed"] == 0.0 and "timeout" in result["detail"]


# Seven tests a program hard-coding the prompt's examples passes, and an eighth it fails.
HARD_CODED = _fenced("def add(a, b):\n    return {(1, 2): 3, (2, 2): 4}.get((a, b), 0)")
SEVEN_AND_ONE = [{"code": "assert add(1, 2) == 3"}] * 4 + [{"code": "assert add(2, 2) == 4"}] * 3
SEVEN_AND_ONE = [*SEVEN_AND_ONE, {"code": "assert add(5, 5) == 10"}]


def test_every_test_runs_by_default(client: httpx.Client) -> None:
    """The eighth test runs: a program that passes only the first seven loses the bonus."""
    items = [_code(HARD_CODED, SEVEN_AND_ONE), _code(ADD, SEVEN_AND_ONE)]
    hard_coded, honest = client.post("/score/code", json={"items": items}).json()["results"]
    assert hard_coded["status"] == "ok" and hard_coded["reward"] == pytest.approx(7 / 8)
    components = hard_coded["components"]
    assert (components["tests_passed"], components["tests_total"]) == (7.0, 8.0)
    assert (components["tests_given"], components["tests_not_run"]) == (8.0, 0.0)
    assert "test 8:" in hard_coded["detail"] and "not run" not in hard_coded["detail"]
    assert honest["reward"] == 2.0 and honest["components"]["tests_capped"] == 0.0


def test_an_item_choosing_its_first_tests_says_how_many_ran(client: httpx.Client) -> None:
    """Seed 003's max_tests_per_problem: the item's own choice, reported, bonus kept."""
    item = _code(HARD_CODED, SEVEN_AND_ONE, max_tests=3)
    result = client.post("/score/code", json={"items": [item]}).json()["results"][0]
    assert result["reward"] == 2.0
    components = result["components"]
    assert (components["tests_total"], components["tests_given"]) == (3.0, 8.0)
    assert (components["tests_not_run"], components["tests_capped"]) == (5.0, 0.0)
    reason = "only the first 3 of the item's 8 tests ran (5 not run: the item's max_tests is 3)"
    assert reason in result["detail"]


def test_the_servers_limit_is_reported_and_withholds_the_bonus(strict_service_url: str) -> None:
    """Past the server's limit (4 here) or its ceiling (6), the tests that ran are counted,
    the rest are reported with the reason, and passing what ran earns no perfect bonus."""
    passing = [{"code": "assert add(1, 2) == 3"}] * 8
    items = [
        _code(ADD, passing),
        _code(ADD, passing, max_tests=7),
        _code(ADD, passing, max_tests=SMALL_TEST_CEILING),
        _code(ADD, passing[:SMALL_TEST_LIMIT]),
    ]
    reply = httpx.post(
        f"{strict_service_url}/score",
        json={"items": items},
        headers={"Authorization": f"Bearer {API_KEY}"},
        timeout=120,
    )
    assert reply.status_code == 200, reply.text
    limit, ceiling, chosen, within = reply.json()["results"]
    assert (limit["status"], limit["reward"]) == ("ok", 1.0)  # 4/4, no bonus
    components = limit["components"]
    assert (components["tests_passed"], components["tests_total"]) == (SMALL_TEST_LIMIT, 4.0)
    assert (components["tests_not_run"], components["tests_capped"]) == (4.0, 1.0)
    assert (
        f"only the first 4 of the item's 8 tests ran (4 not run: the server's limit is "
        f"{SMALL_TEST_LIMIT} tests per item; the item's max_tests raises it, up to "
        f"{SMALL_TEST_CEILING}); no perfect bonus"
    ) in limit["detail"]
    assert ceiling["reward"] == 1.0 and ceiling["components"]["tests_total"] == 6.0
    assert "max_tests (7) is above the server's ceiling of 6" in ceiling["detail"]
    assert chosen["reward"] == 2.0 and chosen["components"]["tests_not_run"] == 2.0
    assert within["reward"] == 2.0 and "not run" not in within["detail"]


def test_q_without_an_interpreter_is_unavailable_with_the_reason(client: httpx.Client) -> None:
    if os.environ.get("Q_BIN"):
        pytest.skip("Q_BIN is set: q is available, so this fallback cannot be observed")
    item = {
        "language": "q",
        "completion": "```q\nf:{x+1}\n```",
        "tests": [{"code": "show f 1;", "expected": "2"}],
    }
    result = client.post("/score/code", json={"items": [item]}).json()["results"][0]
    assert result["status"] == "unavailable" and result["reward"] is None
    assert "Q_BIN" in result["detail"]
    ready = client.get("/ready").json()["backends"]
    assert ready["q"]["ok"] is False and ready["sandbox"]["ok"] is True


def test_direct_q_code_is_the_program(client: httpx.Client) -> None:
    # The Q paper's non-reasoning format: the completion is the q program, with no fence.
    tests = [{"code": "show solve 1;", "expected": "2"}]
    direct = {"language": "q", "completion": "solve:{x+1}", "tests": tests}
    reasoned = {"language": "q", "completion": "<reasoning>add one</reasoning>", "tests": tests}
    results = client.post("/score/code", json={"items": [direct, reasoned]}).json()["results"]
    assert results[0]["extracted"] == "solve:{x+1}"
    if os.environ.get("Q_BIN"):
        assert (results[0]["status"], results[0]["reward"]) == ("ok", 2.0)
    else:  # extracted and handed to the q runner, which is missing here
        assert results[0]["status"] == "unavailable" and "Q_BIN" in results[0]["detail"]
    assert results[1]["extracted"] is None
    assert (results[1]["status"], results[1]["reward"]) == ("ok", -0.5)  # no code: -0.5


def test_typed_route_rejects_other_tasks_per_item(client: httpx.Client) -> None:
    items = [{"task": "math", "completion": "1", "reference": "1"}, _code(ADD, [{"code": "1"}])]
    results = client.post("/score/code", json={"items": items}).json()["results"]
    assert results[0]["status"] == "error" and "only 'code'" in results[0]["detail"]
    assert results[1]["status"] == "ok"


ATTACKS = {
    "connect-service": "    import socket\n    socket.create_connection(('127.0.0.1', PORT), 1)",
    "connect-outside": "    import socket\n    socket.create_connection(('1.1.1.1', 53), 1)",
    "read-shadow": "    open('/etc/shadow').read()",
    "read-repo": f"    open({str(REPO / 'pyproject.toml')!r}).read()",
    "write-repo": f"    open({str(REPO / 'escaped.txt')!r}, 'w').write('x')",
    "parent-environ": "    import os\n"
    "    assert CANARY not in open(f'/proc/{os.getppid()}/environ').read()\n"
    "    raise PermissionError",
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_isolation_probes_are_blocked(client: httpx.Client, service_url: str, attack: str) -> None:
    port = int(service_url.rsplit(":", 1)[1])
    body = ATTACKS[attack].replace("PORT", str(port)).replace("CANARY", repr(CANARY))
    program = probe_program(body)
    item = _code(_fenced(program), [{"expected": "blocked"}], timeout_s=3)
    result = client.post("/score/code", json={"items": [item]}).json()["results"][0]
    assert result["components"]["tests_passed"] == 1.0, result["detail"]
    assert not (REPO / "escaped.txt").exists()
    _assert_still_serving(client)


def test_program_cannot_see_service_secrets(client: httpx.Client) -> None:
    program = _fenced("import os\nprint(sorted(k for k in os.environ if 'VERIFIER' in k))")
    item = _code(program, [{"expected": "[]"}])
    result = client.post("/score/code", json={"items": [item]}).json()["results"][0]
    assert result["components"]["tests_passed"] == 1.0, result["detail"]


HOSTILE = {
    "fork-bomb": "import os\nwhile True:\n    os.fork()",
    "memory-bomb": "x = []\nwhile True:\n    x.append(bytearray(100_000_000))",
    "infinite-loop": "while True:\n    pass",
    "gigabyte-output": "import sys\nchunk = 'x' * 1_000_000\nfor _ in range(1000):\n"
    "    sys.stdout.write(chunk)",
    "kill-parent": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
    "os.kill(-1, signal.SIGKILL)",
    "background-sleeper": "import os\nif os.fork() == 0:\n    os.setsid()\n"
    "    if os.fork() == 0:\n        os.execv('/bin/sleep', ['sleep', '4242.5'])\n"
    "    os._exit(0)\nprint('parent done')",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_programs_fail_and_the_service_survives(client: httpx.Client, name: str) -> None:
    item = _code(_fenced(HOSTILE[name]), [{"expected": "never"}], timeout_s=2)
    started = time.monotonic()
    result = client.post("/score/code", json={"items": [item]}).json()["results"][0]
    assert time.monotonic() - started < 60
    assert result["status"] in ("ok", "error"), result
    assert result["components"]["tests_passed"] == 0.0
    _assert_still_serving(client)
    if name == "background-sleeper":
        time.sleep(0.5)
        assert not _host_processes_with("4242.5"), "a background process outlived its job"


def _host_processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _assert_still_serving(client: httpx.Client) -> None:
    assert client.get("/health").status_code == 200
    item = _code(ADD, [{"code": "assert add(2, 3) == 5"}])
    result = client.post("/score/code", json={"items": [item]}).json()["results"][0]
    assert result["reward"] == 2.0, result
