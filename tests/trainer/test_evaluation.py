"""Evaluation rounds: pass@k arithmetic, and completions scored by the real service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainer.config import EvalSection, GenerationSection, RewardSection, ServiceSection
from trainer.evaluation import (
    RESULTS_FILE,
    SAMPLES_FILE,
    Evaluator,
    pass_at_k,
    select_problems,
    summarise,
)
from trainer.service_client import ClientSettings, ServiceClient


@pytest.mark.parametrize(
    ("samples", "correct", "k", "expected"),
    [
        (4, 0, 1, 0.0),
        (4, 1, 1, 0.25),
        (4, 1, 4, 1.0),
        (4, 4, 4, 1.0),
        (4, 0, 4, 0.0),
        (5, 2, 2, 1 - 3 / 10),  # 1 - C(3,2)/C(5,2)
        (10, 3, 5, 1 - 21 / 252),  # 1 - C(7,5)/C(10,5)
    ],
)
def test_pass_at_k(samples: int, correct: int, k: int, expected: float) -> None:
    assert pass_at_k(samples, correct, k) == pytest.approx(expected)


def problem(question: str, reference: str) -> dict[str, object]:
    return {
        "prompt": [{"role": "user", "content": question}],
        "task": "math",
        "reference": reference,
    }


def test_a_round_is_scored_by_the_service(service_url: str, tmp_path: Path) -> None:
    problems = [problem("What is 6 * 7?", "42"), problem("What is 2 + 2?", "4")]
    client = ServiceClient(ClientSettings.from_section(ServiceSection(url=[service_url])))
    evaluator = Evaluator(
        problems,
        EvalSection(every_steps=1, num_samples=4),
        GenerationSection(),
        RewardSection(),
        client.score,
        tmp_path,
    )
    completions = [
        ["\\boxed{42}", "The answer is 42.", "\\boxed{41}", "no idea"],  # 2 of 4 right
        ["\\boxed{5}", "\\boxed{3}", "The answer is 22.", "\\boxed{1}"],  # none right
    ]
    try:
        summary = evaluator.evaluate(completions, step=7)
    finally:
        client.close()
    assert summary["eval/pass@1"] == pytest.approx((2 / 4 + 0) / 2)
    assert summary["eval/pass@4"] == pytest.approx((1 + 0) / 2)
    assert summary["eval/reward"] == pytest.approx((1 + 1 - 1 - 0.5 - 1 - 1 - 1 - 1) / 8)
    assert summary["eval/correct"] == pytest.approx(2 / 8)
    assert summary["eval/status_ok"] == 1.0
    rounds = json.loads((tmp_path / RESULTS_FILE).read_text())
    assert rounds == [
        {
            **{k.removeprefix("eval/"): v for k, v in summary.items()},
            "step": 7,
            "num_problems": 2,
            "num_samples": 4,
        }
    ]
    samples = [json.loads(line) for line in (tmp_path / SAMPLES_FILE).read_text().splitlines()]
    assert [s["solved"] for s in samples] == [1, 1, 0, 0, 0, 0, 0, 0]
    assert samples[3]["extracted"] is None and samples[3]["reward"] == -0.5


def test_unjudged_samples_leave_pass_at_k_open() -> None:
    # q code on a service without q: "unavailable", neither right nor wrong.
    from services.contract.protocol import Judge, ScoreResult, Status
    from trainer.evaluation import Sample

    unavailable = ScoreResult(
        index=0,
        status=Status.UNAVAILABLE,
        judge=Judge.RULE,
        reward=None,
        components={"tests_total": 3.0, "format": 0.0},
    )
    summary = summarise([Sample(0, "solve:{x}", unavailable)] * 4, k=4)
    assert summary["eval/pass@1"] is None and summary["eval/pass@4"] is None
    assert summary["eval/reward"] is None and summary["eval/status_unavailable"] == 1.0


def test_problems_come_from_a_file_or_are_held_out() -> None:
    rows = [problem(f"q{i}", str(i)) for i in range(10)]
    train, held = select_problems(EvalSection(every_steps=1, num_problems=3), rows, lambda p: [])
    assert (train, held) == (rows[:7], rows[7:])
    other = [problem("x", "1")] * 5
    train, held = select_problems(
        EvalSection(every_steps=1, num_problems=3, path="e.jsonl"), rows, lambda p: other
    )
    assert (train, held) == (rows, other[:3])
    with pytest.raises(ValueError, match="hold out all"):
        select_problems(EvalSection(every_steps=1, num_problems=10), rows, lambda p: [])
