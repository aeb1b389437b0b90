"""The math task's entry: its judge follows the settings' defaults (resolved into the
request's policy) with the service's checker, each
item asks one comparison of the math backend, and its batch route is ``/score/math``."""

from __future__ import annotations

import asyncio

from services.admission import Backend
from services.contract.protocol import TYPED_REQUESTS, ExtractionPolicy, RewardOptions, Task
from services.mathcheck.checker import MathChecker
from services.metrics import Metrics
from services.settings import Settings
from services.tasks.entry import JudgeParts
from services.tasks.judging import BatchContext, Entry
from services.tasks.math.task import ENTRY as MATH
from services.tasks.math.wire import MathItem


def _judged(checker: MathChecker, settings: Settings, completion: str) -> bool | None:
    parts = JudgeParts(checker, Metrics(), code=None, verifier=None)
    context = BatchContext(RewardOptions().to_policy(settings.defaults), 1e12, budget_s=10.0)
    item = MathItem(completion=completion, reference="4")
    (judgement,) = asyncio.run(MATH.judge(parts).judge([Entry(0, item)], context))
    return judgement.correct


def test_the_judge_reads_after_the_reasoning_block_when_the_settings_say_so(
    math_checker: MathChecker,
) -> None:
    inside = "<think>\\boxed{4}</think> I am not sure."
    assert _judged(math_checker, Settings(), inside) is False
    assert _judged(math_checker, Settings(answer_after_reasoning=False), inside) is True


def test_the_judge_takes_the_settings_extraction_policy(math_checker: MathChecker) -> None:
    unmarked = "so it is 4"
    assert _judged(math_checker, Settings(extraction=ExtractionPolicy.BOXED), unmarked) is False
    assert _judged(math_checker, Settings(extraction=ExtractionPolicy.LENIENT), unmarked) is True


def test_each_item_asks_one_comparison_of_the_math_backend() -> None:
    assert (MATH.name, MATH.backend) == (Task.MATH, Backend.MATH)
    assert MATH.demand(MathItem(completion="\\boxed{4}", reference="4")) == 1


def test_the_batch_route_is_score_math() -> None:
    assert MATH.route is not None
    assert (MATH.route.path, MATH.route.body) == ("/score/math", "MathScoreRequest")
    assert TYPED_REQUESTS[Task.MATH].model_fields["items"].annotation == list[MathItem]
    assert MATH.verification is not None
