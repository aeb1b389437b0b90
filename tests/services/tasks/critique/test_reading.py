"""The RRM-training reward against seed 004's own parser, on the seed's edge cases, with
the grade bounded on both sides and a grade that is not a finite number unread."""

from __future__ import annotations

import math

import httpx
import pytest

from services.tasks.critique.reading import grade_text, read_grade


def seed_grade_reward(solution_str: str, ground_truth: float) -> float:
    """Seed 004's ``data_source == 'grade'`` branch, as the seed document gives it."""
    ans = (
        solution_str.split("Total Score")[-1]
        .replace(":", "")
        .replace("[", "")
        .replace("points", "")
        .replace("point", "")
        .replace("*", "")
        .replace("|", "")
        .replace("'", "")
    )
    ans = ans.split("/")[0].strip()
    try:
        score = min(10.0, float(ans)) / 10.0
        return (1.0 - abs(float(score) - float(ground_truth))) ** 2
    except Exception:
        return 0.0


def bounded_seed_reward(solution_str: str, ground_truth: float) -> float:
    """The seed's reward with its two departures: X is clamped into [0, 10] on both sides,
    and an X that is not a finite number is no grade (0.0)."""
    text = grade_text(solution_str)
    try:
        value = float(text)
    except ValueError:
        return 0.0
    if not math.isfinite(value):
        return 0.0
    return seed_grade_reward(f"Total Score: {max(0.0, value)!r}", ground_truth)


EDGE_CASES = [
    "The proof is complete.\nTotal Score: 7/10",
    "**Total Score:** 8/10",
    "Total Score: [9]/10",  # "]" is not removed: unreadable
    "Total Score: [9/10]",
    "Total Score: 6 points",
    "Total Score: 1 point / 10",
    "| Total Score | 5 |",
    "Total Score: '4'/10",
    "Total Score: 12/10",  # above 10: capped
    "Total Score: 7.5 / 10",
    "Total Score: 3/10 ... revised. Total Score: 9/10",  # the last one counts
    "total score: 7/10",  # lower case: the seed finds no marker, the whole text is unreadable
    "Total Score 10",
    "Total Score: seven/10",
    "no grade at all",
    "",
    "Total Score:",
    "Total Score: 0/10",
    "Total Score: -3/10",  # the seed reads negative grades as they are; clamped to 0 here
    "Total Score: 1e1/10",
    "Total Score: nan/10",  # float('nan'): the seed's min(10, nan) is 10; no grade here
    "Total Score: inf",  # the seed's 10/10; no grade here
    "Total Score: 8/10 points",
    "Total Score: 1_0/10",  # float() reads digit separators
    "Total Score: ７/10",  # and other scripts' digits
]


# What a policy controls in its critique: negative, huge, not-a-number, thousand-digit.
HOSTILE_GRADES = [
    "-1000",
    "-1e200",
    "-1e308",
    "-1e400",
    "1e400",
    "1e308",
    "nan",
    "NaN",
    "-nan",
    "inf",
    "-inf",
    "Infinity",
    "-" + "9" * 1000,
    "9" * 1000,
    "0." + "9" * 1000,
    "-0",
    "1e-320",
]


@pytest.mark.parametrize("completion", EDGE_CASES)
@pytest.mark.parametrize("target", [0.0, 0.2, 0.75, 1.0])
def test_matches_the_seed_parser_within_bounds(completion: str, target: float) -> None:
    assert read_grade(completion, target).reward == pytest.approx(
        bounded_seed_reward(completion, target)
    )
    # Where the seed's grade is already in [0, 10] the two agree exactly.
    value = grade_text(completion)
    if _readable(value) and 0.0 <= float(value) <= 10.0:
        assert read_grade(completion, target).reward == pytest.approx(
            seed_grade_reward(completion, target)
        )


def test_a_negative_grade_is_clamped_not_rewarded() -> None:
    # Seed 004's min(10, X)/10: "-1000/10" earns (1 + 100 + 0.5)^2 ~ 10^4 there.
    assert seed_grade_reward("Total Score: -1000/10", 0.5) > 9000
    graded = read_grade("Total Score: -1000/10", 0.5)
    assert graded.score == 0.0 and graded.reward == pytest.approx(0.25)
    assert "clamped" in graded.reason


def test_a_grade_past_float_range_neither_overflows_nor_scores() -> None:
    with pytest.raises(OverflowError):
        seed_grade_reward_raising("Total Score: -1e200/10", 0.5)
    assert read_grade("Total Score: -1e200/10", 0.5).reward == pytest.approx(0.25)
    for text in ("nan", "inf", "1e400", "9" * 1000):
        # The seed gives nan and inf a full 10/10 (min(10, nan) is 10).
        graded = read_grade(f"Total Score: {text}/10", 1.0)
        assert graded.reward == 0.0 and graded.score is None, text


@pytest.mark.parametrize("grade", HOSTILE_GRADES)
@pytest.mark.parametrize("target", [0.0, 0.3, 1.0])
def test_hostile_grades_stay_in_the_unit_interval(grade: str, target: float) -> None:
    graded = read_grade(f"Fine.\nTotal Score: {grade}/10", target)
    assert 0.0 <= graded.reward <= 1.0 and math.isfinite(graded.reward)
    assert graded.score is None or 0.0 <= graded.score <= 1.0


def seed_grade_reward_raising(solution_str: str, ground_truth: float) -> float:
    """The seed's formula without its ``except``: what it computes before the catch."""
    score = min(10.0, float(grade_text(solution_str))) / 10.0
    return (1.0 - abs(score - ground_truth)) ** 2


def test_unreadable_grade_scores_zero_not_a_formula_value() -> None:
    graded = read_grade("I think it is fine.", 0.2)
    assert graded.reward == 0.0 and graded.score is None
    assert "no grade can be read" in graded.reason


def test_reports_what_was_read() -> None:
    graded = read_grade("**Total Score:** [8 points]/10", 0.5)
    assert graded.grade_text == grade_text("**Total Score:** [8 points]/10") == "8 ]"
    assert graded.reward == 0.0  # "]" is not one of the characters the seed removes
    assert read_grade("Total Score: 8/10", 0.5).score == pytest.approx(0.8)


def test_minus_infinity_is_unreadable_rather_than_an_infinite_reward() -> None:
    # The seed's formula gives inf, which no trainer can use.
    assert math.isinf(seed_grade_reward("Total Score: -inf", 0.2))
    graded = read_grade("Total Score: -inf", 0.2)
    assert graded.reward == 0.0 and "not a finite number" in graded.reason


def _readable(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_critique_items_through_the_service(service_url: str) -> None:
    texts = [text for text in EDGE_CASES if text != "Total Score: -inf"]
    items = [
        {"task": "critique", "id": i, "completion": t, "reference": 0.7}
        for i, t in enumerate(texts)
    ]
    response = httpx.post(f"{service_url}/score", json={"items": items}, timeout=60)
    assert response.status_code == 200, response.text
    for text, result in zip(texts, response.json()["results"], strict=True):
        assert result["status"] == "ok" and result["task"] == "critique"
        assert result["reward"] == pytest.approx(bounded_seed_reward(text, 0.7))
        assert result["extracted"] == grade_text(text)
        readable = _readable(grade_text(text)) and math.isfinite(float(grade_text(text)))
        assert ("score" in result["components"]) is readable


def test_the_former_name_grade_scores_exactly_as_critique(service_url: str) -> None:
    # 'grade' was this task's name: it is still accepted, and the result names the task
    # 'critique', as the metrics do.
    def scored(task: str) -> list[dict[str, object]]:
        items = [
            {"task": task, "id": i, "completion": t, "reference": 0.7}
            for i, t in enumerate(EDGE_CASES)
        ]
        response = httpx.post(f"{service_url}/score", json={"items": items}, timeout=60)
        assert response.status_code == 200, response.text
        results: list[dict[str, object]] = response.json()["results"]
        return results

    assert scored("grade") == scored("critique")
    assert {result["task"] for result in scored("grade")} == {"critique"}


@pytest.mark.parametrize("task", ["critique", "grade"])
def test_critique_targets_are_validated(service_url: str, task: str) -> None:
    item = {"task": task, "completion": "Total Score: 5/10", "reference": 1.5}
    (result,) = httpx.post(f"{service_url}/score", json={"items": [item]}, timeout=60).json()[
        "results"
    ]
    assert result["status"] == "error" and "reference" in result["detail"]
