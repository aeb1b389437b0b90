"""The code judge in-process, with the real sandbox: extraction, the tests run, the verdict."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from sandbox import Sandbox
from services.codecheck.outcome_cache import OutcomeCache
from services.contract.protocol import Judge, RewardOptions, Status, Task
from services.rewards.format_reward import score_format
from services.settings import Settings
from services.tasks.code.judge import CodeEvidence, CodeJudge, PassCount, Runs
from services.tasks.code.selection import TestLimits
from services.tasks.code.wire import CodeItem
from services.tasks.judging import BatchContext, Entry
from services.tasks.policy import ServerDefaults

pytestmark = pytest.mark.anyio
OPTIONS = RewardOptions().to_policy()
ADD = "Here it is.\n```python\ndef add(a, b):\n    return a + b\n```"
HANG = "```python\ndef add(a, b):\n    while True:\n        pass\n```"
TESTS = [{"code": "assert add(1, 2) == 3"}, {"code": "assert add(2, 2) == 4"}]


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    box = Sandbox(Settings(sandbox={"workers": 1}).sandbox)
    yield box
    box.close()


def _item(completion: str, tests: list[dict[str, Any]], **extra: Any) -> CodeItem:
    return CodeItem.model_validate(
        {"task": "code", "language": "python", "completion": completion, "tests": tests, **extra}
    )


async def test_a_program_passing_every_test_is_correct(sandbox: Sandbox) -> None:
    judgement = await CodeJudge(sandbox).judge_item(3, _item(ADD, TESTS, id="a"), OPTIONS)
    assert (judgement.index, judgement.id, judgement.task) == (3, "a", Task.CODE)
    assert (judgement.status, judgement.judge, judgement.judged) == (Status.OK, Judge.RULE, True)
    assert judgement.correct is True and judgement.detail == "2/2 tests passed"
    assert judgement.evidence is not None
    assert judgement.evidence.program == "def add(a, b):\n    return a + b"
    assert judgement.evidence.tests == PassCount(2, 2, 0)


async def test_a_failing_test_is_counted_and_described(sandbox: Sandbox) -> None:
    tests = [*TESTS, {"code": "assert add(0, 0) == 1"}]
    judgement = await CodeJudge(sandbox).judge_item(0, _item(ADD, tests), OPTIONS)
    assert judgement.correct is False and judgement.evidence is not None
    assert judgement.evidence.tests == PassCount(2, 3, 0)
    assert judgement.detail.startswith("2/3 tests passed (")
    assert "test 3:" in judgement.detail


async def test_no_code_is_judged_wrong_without_running(sandbox: Sandbox) -> None:
    judgement = await CodeJudge(sandbox).judge_item(0, _item("I cannot.", TESTS), OPTIONS)
    assert (judgement.status, judgement.judged, judgement.correct) == (Status.OK, True, False)
    assert judgement.detail == "no python code found in the completion"
    assert judgement.evidence is not None and judgement.evidence.program is None
    assert judgement.evidence.tests == PassCount(0, 2, 0)


async def test_a_test_that_checks_nothing_is_an_error(sandbox: Sandbox) -> None:
    tests = [{"code": "assert add(1, 2) == 3"}, {"stdin": "1 2"}]
    judgement = await CodeJudge(sandbox).judge_item(0, _item(ADD, tests), OPTIONS)
    assert (judgement.status, judgement.judged) == (Status.ERROR, False)
    assert judgement.detail.startswith("test 2 has neither code nor expected output")


async def test_every_test_runs_up_to_the_limit_and_the_rest_are_counted(
    sandbox: Sandbox,
) -> None:
    # Seven passing tests and a failing eighth: the eighth runs by default.
    tests = [{"code": "assert add(1, 1) == 2"}] * 7 + [{"code": "assert add(1, 1) == 3"}]
    scorer = CodeJudge(sandbox, tests=TestLimits(default=6, ceiling=7))
    every = await CodeJudge(sandbox).judge_item(0, _item(ADD, tests), OPTIONS)
    assert every.evidence is not None and every.evidence.tests == PassCount(7, 8)
    assert every.correct is False and "not run" not in every.detail

    capped = await scorer.judge_item(0, _item(ADD, tests), OPTIONS)
    assert capped.evidence is not None
    assert capped.evidence.tests == PassCount(6, 6, 0, not_run=2, capped=True)
    assert capped.correct is False
    assert "only the first 6 of the item's 8 tests ran (2 not run: the server's limit is 6" in (
        capped.detail
    )
    assert "no perfect bonus" in capped.detail

    above = await scorer.judge_item(0, _item(ADD, tests, max_tests=100), OPTIONS)
    assert above.evidence is not None
    assert above.evidence.tests == PassCount(7, 7, 0, not_run=1, capped=True)
    assert "max_tests (100) is above the server's ceiling of 7" in above.detail

    chosen = await scorer.judge_item(0, _item(ADD, tests, max_tests=2), OPTIONS)
    assert chosen.evidence is not None
    assert chosen.evidence.tests == PassCount(2, 2, 0, not_run=6, capped=False)
    assert chosen.correct is True
    assert chosen.detail == (
        "2/2 tests passed; only the first 2 of the item's 8 tests ran "
        "(6 not run: the item's max_tests is 2)"
    )


async def test_a_first_test_timing_out_skips_the_rest_unless_every_test(
    sandbox: Sandbox,
) -> None:
    tests = [*TESTS, {"code": "assert add(0, 0) == 0"}]
    item = _item(HANG, tests, timeout_s=0.3)
    skipped = await CodeJudge(sandbox).judge_item(0, item, OPTIONS)
    assert skipped.evidence is not None and skipped.evidence.tests == PassCount(0, 3, 2)
    assert "2 more skipped after the first test timed out" in skipped.detail
    every_test = ServerDefaults(every_test=True).resolve()  # the server's setting
    every = await CodeJudge(sandbox).judge_item(0, item, every_test)
    assert every.evidence is not None and every.evidence.tests == PassCount(0, 3, 0)
    assert "skipped" not in every.detail and "timeout=3" in every.detail


def test_limits_are_cpu_time_with_a_wall_clock_backstop(sandbox: Sandbox) -> None:
    limits = CodeJudge(sandbox, wall_backstop=2.5).limits(2.0)
    assert (limits.cpu_s, limits.wall_s) == (2.0, 5.0)
    # A backstop below 1 would kill a program before its CPU time is spent.
    assert CodeJudge(sandbox, wall_backstop=0.5).limits(2.0).wall_s == 2.0


async def test_identical_items_of_one_request_share_one_run(sandbox: Sandbox) -> None:
    scorer = CodeJudge(sandbox)
    runs: Runs = {}
    first = await scorer.judge_item(0, _item(ADD, TESTS), OPTIONS, runs)
    second = await scorer.judge_item(1, _item(ADD, TESTS, id="again"), OPTIONS, runs)
    other = await scorer.judge_item(2, _item(ADD, TESTS[:1]), OPTIONS, runs)
    assert len(runs) == 2
    assert first.evidence == second.evidence and first.detail == second.detail
    assert other.evidence is not None and other.evidence.tests == PassCount(1, 1, 0)


async def test_runs_of_recent_requests_come_from_the_outcome_cache(sandbox: Sandbox) -> None:
    hits: list[bool] = []
    scorer = CodeJudge(sandbox, outcomes=OutcomeCache(8, 60, on_lookup=hits.append))
    await scorer.judge_item(0, _item(ADD, TESTS), OPTIONS)
    again = await scorer.judge_item(0, _item(ADD, TESTS), OPTIONS)
    assert hits == [False, True]
    assert again.correct is True and again.detail == "2/2 tests passed"


async def test_judge_returns_one_judgement_per_entry_in_order(sandbox: Sandbox) -> None:
    entries = [Entry(4, _item(ADD, TESTS)), Entry(7, _item("nothing", TESTS))]
    context = BatchContext(OPTIONS, asyncio.get_running_loop().time() + 60, 60)
    judged = await CodeJudge(sandbox).judge(entries, context)
    assert [(j.index, j.correct) for j in judged] == [(4, True), (7, False)]


async def test_a_sandbox_that_cannot_run_the_language_makes_the_item_unavailable() -> None:
    box = Sandbox(Settings(sandbox={"workers": 1, "python": "/nonexistent/python3"}).sandbox)
    try:
        judgement = await CodeJudge(box).judge_item(0, _item(ADD, TESTS), OPTIONS)
    finally:
        box.close()
    assert (judgement.status, judgement.judged) == (Status.UNAVAILABLE, False)
    assert judgement.detail == (
        "code execution unavailable: python interpreter not found or not executable: "
        "/nonexistent/python3"
    )


async def test_demand_counts_only_the_tests_that_will_run(sandbox: Sandbox) -> None:
    hits: list[bool] = []
    scorer = CodeJudge(sandbox, outcomes=OutcomeCache(8, 60, on_lookup=hits.append))
    three = [*TESTS, {"code": "assert add(0, 0) == 0"}]
    entries = [
        Entry(0, _item(ADD, three)),
        Entry(1, _item(ADD, three, id="repeat")),  # runs once with the first
        Entry(2, _item("no code here", TESTS)),
        Entry(3, _item(ADD, [{"stdin": "1"}])),  # a test that checks nothing: not run
        Entry(4, _item(ADD, TESTS)),
    ]
    assert scorer.demand(entries, OPTIONS) == 3 + 2
    assert await scorer.paced_demand(entries, OPTIONS) == 3 + 2
    await scorer.judge_item(4, _item(ADD, TESTS), OPTIONS)
    assert scorer.demand(entries, OPTIONS) == 3  # that run is cached now
    assert await scorer.paced_demand(entries, OPTIONS) == 3
    assert (
        scorer.demand(entries, RewardOptions(every_test=True).to_policy()) == 3 + 2
    )  # another run
    assert hits == [False]  # counting is not a cache lookup


async def test_paced_demand_counts_as_demand_and_gives_the_loop_turns(sandbox: Sandbox) -> None:
    scorer = CodeJudge(sandbox)
    entries = [
        Entry(i, _item(ADD, [{"code": f"assert add({i}, 1) == {i + 1}"}, *TESTS]))
        for i in range(200)
    ]
    entries += [Entry(200 + i, _item(ADD, TESTS)) for i in range(100)]  # one run
    turns = 0

    async def count_turns() -> None:
        nonlocal turns
        while True:
            await asyncio.sleep(0)
            turns += 1

    counter = asyncio.ensure_future(count_turns())
    demand = await scorer.paced_demand(entries, OPTIONS)
    counter.cancel()
    assert demand == scorer.demand(entries, OPTIONS) == 200 * 3 + 2
    assert turns >= 5  # 300 items and 201 distinct runs: a slice per turn


def test_demand_counts_the_tests_the_servers_limits_take(sandbox: Sandbox) -> None:
    scorer = CodeJudge(sandbox, tests=TestLimits(default=2, ceiling=3))
    four = [*TESTS, *TESTS]
    entries = [
        Entry(0, _item(ADD, four)),  # the server's limit: 2
        Entry(1, _item(ADD, four, max_tests=9)),  # the ceiling: 3
        Entry(2, _item(ADD, four, max_tests=1)),  # its own: 1
    ]
    assert scorer.demand(entries, OPTIONS) == 2 + 3 + 1


def test_a_pass_count_skips_nothing_unless_told() -> None:
    assert PassCount(2, 3) == PassCount(passed=2, total=3, skipped=0, not_run=0, capped=False)
    assert PassCount(0, 3, 2) != PassCount(0, 3)
    assert dataclasses.astuple(PassCount(1, 4, 3)) == (1, 4, 3, 0, False)


def test_all_passed_needs_every_test_the_item_asked_for() -> None:
    assert PassCount(3, 3).all_passed and PassCount(3, 3, not_run=5).all_passed
    assert PassCount(3, 3, not_run=5).given == 8
    assert not PassCount(3, 3, not_run=5, capped=True).all_passed
    assert not PassCount(2, 3).all_passed and not PassCount(0, 0).all_passed


def test_evidence_compares_by_program_format_and_tests() -> None:
    form = score_format("<think>a b c</think> done", 0)
    evidence = CodeEvidence("print(1)", form, PassCount(1, 1))
    assert evidence == CodeEvidence("print(1)", form, PassCount(1, 1))
    assert evidence != CodeEvidence(None, form, PassCount(1, 1))
    assert evidence != CodeEvidence("print(1)", form, PassCount(0, 1))
    assert dataclasses.replace(evidence, tests=PassCount(0, 1)).tests == PassCount(0, 1)


@pytest.mark.parametrize(
    "value", [PassCount(1, 2), CodeEvidence(None, score_format("", 0), PassCount(0, 0))]
)
def test_evidence_is_frozen_with_no_room_for_more_fields(value: object) -> None:
    field = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, None)
    assert not hasattr(value, "__dict__")
