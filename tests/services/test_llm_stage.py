"""The LLM stage in-process, without a verifier: which items it asks about, through the
tasks' verification hooks, and what becomes of the others."""

from __future__ import annotations

import asyncio
from typing import Any

from services.contract.protocol import Mode, RewardOptions, Status, Task
from services.judgement import Judgement, unjudged
from services.llm_stage import LLMStage
from services.metrics import Metrics
from services.tasks.critique.judge import judge_critique
from services.tasks.critique.wire import CritiqueItem
from services.tasks.math.wire import MathItem
from tests.services.tasks.math.test_verification import math_judged

MATH = MathItem(completion="I think it is four.", reference="4")
CRITIQUE = CritiqueItem(task=Task.CRITIQUE, completion="Total Score: 5/10", reference=0.5)


def _refine(
    mode: Mode, items: list[Any], judgements: list[Judgement[Any]]
) -> tuple[list[Judgement[Any]], Metrics]:
    metrics = Metrics()
    stage = LLMStage(None, metrics)
    refined = asyncio.run(stage.refine(items, judgements, RewardOptions(mode=mode).to_policy()))
    return refined, metrics


def _count(metrics: Metrics, mode: Mode, outcome: str) -> float:
    labels = {"mode": mode.value, "outcome": outcome}
    return metrics.registry.get_sample_value("verifier_llm_items_total", labels) or 0.0


def test_rule_mode_asks_nothing() -> None:
    judgements = [math_judged(None, False)]
    refined, _ = _refine(Mode.RULE, [MATH], judgements)
    assert refined[0] is judgements[0]


def test_only_tasks_with_verification_hooks_are_refined() -> None:
    critique = judge_critique(1, CRITIQUE)
    late = unjudged(2, None, Task.MATH, Status.TIMEOUT, "late")
    wrong = math_judged("5", False)
    refined, metrics = _refine(
        Mode.MIXED, [MATH, CRITIQUE, MATH, None], [wrong, critique, late, late]
    )
    # The math item was asked about (no verifier: the rule verdict stands, labelled); the
    # critique item has no hooks; an unjudged item and an invalid one are never sent.
    assert refined[0].status is Status.UNAVAILABLE
    assert refined[0].detail.endswith("rule verdict used")
    assert refined[1:] == [critique, late, late]
    assert _count(metrics, Mode.MIXED, "fallback") == 1.0


def test_addon_skips_an_answer_the_rule_accepted_and_refuses_an_empty_span() -> None:
    accepted = math_judged("4", True)
    refined, metrics = _refine(Mode.ADDON, [MATH], [accepted])
    assert refined == [accepted]
    assert _count(metrics, Mode.ADDON, "skipped") == 1.0
    empty = MathItem(completion=":", reference="4")
    refined, metrics = _refine(Mode.ADDON, [empty], [math_judged(None, False)])
    assert "no answer-bearing span" in refined[0].detail
    assert _count(metrics, Mode.ADDON, "refused") == 1.0
