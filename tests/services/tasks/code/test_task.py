"""The code task's entry: its judge is the sandboxed code judge where the server has one and
says code is not enabled where it has none; each test a code item takes is one unit of the
sandbox backend; its batch route is ``/score/code``."""

from __future__ import annotations

import asyncio

from sandbox import Sandbox
from services.admission import Backend
from services.mathcheck.checker import MathChecker
from services.metrics import Metrics
from services.protocol import TYPED_REQUESTS, RewardOptions, Status, Task
from services.settings import Settings
from services.tasks.code.judge import CodeJudge
from services.tasks.code.result import present_code
from services.tasks.code.reward import code_reward
from services.tasks.code.selection import DEFAULT_MAX_TESTS, MAX_TESTS_CEILING
from services.tasks.code.task import CODE_DISABLED
from services.tasks.code.task import ENTRY as CODE
from services.tasks.code.wire import CodeItem
from services.tasks.entry import JudgeParts
from services.tasks.judging import BatchContext, Entry, TaskJudge

ADD = "```python\ndef add(a, b):\n    return a + b\n```"


def _item(tests: int, max_tests: int | None = None) -> CodeItem:
    return CodeItem(
        task=Task.CODE,
        language="python",
        completion=ADD,
        tests=[{"code": "assert add(1, 1) == 2"}] * tests,
        max_tests=max_tests,
    )


def _judge_one(checker: MathChecker, code: TaskJudge | None) -> tuple[Status, str, bool | None]:
    parts = JudgeParts(checker, Metrics(), code=code, verifier=None)
    context = BatchContext(RewardOptions().to_policy(), deadline=1e12, budget_s=30.0)
    (judgement,) = asyncio.run(CODE.judge(parts).judge([Entry(0, _item(2))], context))
    return judgement.status, judgement.detail, judgement.correct


def test_without_a_sandbox_every_code_item_says_code_is_not_enabled(
    math_checker: MathChecker,
) -> None:
    assert _judge_one(math_checker, None) == (Status.UNAVAILABLE, CODE_DISABLED, None)


def test_with_a_sandbox_the_entry_judges_through_the_code_judge(math_checker: MathChecker) -> None:
    sandbox = Sandbox(Settings(sandbox={"workers": 1}).sandbox)
    try:
        judged = _judge_one(math_checker, CodeJudge(sandbox))
    finally:
        sandbox.close()
    assert judged == (Status.OK, "2/2 tests passed", True)


def test_an_item_asks_the_sandbox_for_each_test_it_takes() -> None:
    assert (CODE.name, CODE.item, CODE.backend) == (Task.CODE, CodeItem, Backend.SANDBOX)
    assert CODE.demand(_item(3)) == 3
    assert CODE.demand(_item(8)) == 8  # every test, not the first five
    assert CODE.demand(_item(DEFAULT_MAX_TESTS + 4)) == DEFAULT_MAX_TESTS
    assert CODE.demand(_item(DEFAULT_MAX_TESTS + 4, max_tests=DEFAULT_MAX_TESTS + 2)) == (
        DEFAULT_MAX_TESTS + 2
    )
    assert CODE.demand(_item(MAX_TESTS_CEILING + 1, max_tests=10**6)) == MAX_TESTS_CEILING
    assert CODE.demand(_item(9, max_tests=2)) == 2
    assert CODE.demand(_item(1, max_tests=8)) == 1


def test_the_entry_names_its_route_reward_and_presenter() -> None:
    assert CODE.route is not None
    assert (CODE.route.path, CODE.route.body) == ("/score/code", "CodeScoreRequest")
    assert TYPED_REQUESTS[Task.CODE].model_fields["items"].annotation == list[CodeItem]
    assert (CODE.reward, CODE.present) == (code_reward, present_code)
    assert CODE.verification is None
