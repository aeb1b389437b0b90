"""The extraction policy as a request option and a server default, through the real service."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from harness.service import running_service


def _score(url: str, completions: list[str], reference: str, **options: Any) -> list[Any]:
    items = [{"completion": completion, "reference": reference} for completion in completions]
    response = httpx.post(
        f"{url}/score/math", json={"items": items, "options": options}, timeout=60
    )
    response.raise_for_status()
    results: list[Any] = response.json()["results"]
    return results


SEED_001 = ["\\boxed{41}", "The answer is 41", "41", "Therefore $41$ apples remain."]


def test_boxed_policy_gives_the_no_answer_reward_to_anything_unboxed(service_url: str) -> None:
    boxed, answer_is, bare, sentence = _score(service_url, SEED_001, "41", extraction="boxed")
    assert boxed["reward"] == 1.0 and boxed["components"]["marked"] == 1.0
    for result in (answer_is, bare, sentence):
        assert result["reward"] == -0.5, result
        assert result["components"]["no_answer"] == 1.0
        assert "boxed extraction" in result["detail"]


def test_marked_policy_is_the_default_of_score(service_url: str) -> None:
    default = _score(service_url, SEED_001, "41")
    marked = _score(service_url, SEED_001, "41", extraction="marked")
    assert [r["reward"] for r in default] == [r["reward"] for r in marked] == [1.0, 1.0, 1.0, -0.5]
    assert [r["components"]["marked"] for r in marked] == [1.0, 1.0, 0.0, 0.0]


def test_lenient_policy_takes_the_last_math_and_joins_boxes(service_url: str) -> None:
    sentence, joined, wrong = _score(
        service_url,
        [
            "Therefore $x \\geq 5$ is the solution.",
            "\\boxed{(2, 2)} \\quad \\text{and} \\quad \\boxed{(6, 2)}",
            "Therefore $x > 5$ is the solution.",
        ],
        "[5, \\infty)",
        extraction="lenient",
    )
    assert sentence["reward"] == 1.0 and sentence["components"]["marked"] == 0.0
    assert "last_math" in sentence["detail"]
    assert joined["extracted"] == "(2, 2), (6, 2)" and joined["components"]["marked"] == 1.0
    assert wrong["reward"] == -1.0


def test_an_unknown_policy_is_refused_with_the_field(service_url: str) -> None:
    response = httpx.post(
        f"{service_url}/score/math",
        json={"items": [{"completion": "1", "reference": "1"}], "options": {"extraction": "x"}},
        timeout=60,
    )
    assert response.status_code == 422
    assert "extraction" in response.text


def test_grade_is_lenient_unless_asked(service_url: str) -> None:
    body = {"answer": "Answer $ 9 $", "reference": "$9$"}
    lenient = httpx.post(f"{service_url}/grade", json=body, timeout=60).json()
    assert lenient["correct"] is True and lenient["extracted_answer"] == "9"
    boxed = httpx.post(f"{service_url}/grade", json={**body, "extraction": "boxed"}, timeout=60)
    assert boxed.json()["correct"] is False
    assert "no final answer" in boxed.json()["explanation"]


@pytest.fixture(scope="module")
def boxed_service_url() -> Iterator[str]:
    """A server whose defaults are the boxed policy and no reasoning-block rule."""
    env = {
        "VERIFIER_EXTRACTION": "boxed",
        "VERIFIER_ANSWER_AFTER_REASONING": "false",
        "VERIFIER_MATH_WORKERS": "1",
    }
    with running_service(env) as url:
        yield url


def test_the_server_default_applies_to_score_and_get_reward(boxed_service_url: str) -> None:
    default = _score(boxed_service_url, ["The answer is 41", "\\boxed{41}"], "41")
    assert [r["reward"] for r in default] == [-0.5, 1.0]
    asked = _score(boxed_service_url, ["The answer is 41"], "41", extraction="marked")
    assert asked[0]["reward"] == 1.0
    rewards = httpx.post(
        f"{boxed_service_url}/get_reward",
        json={"query": ["Q: A The answer is 41"], "prompts": ["Q: A"], "labels": ["41"]},
        timeout=60,
    ).json()
    assert rewards["rewards"] == [-0.5]
    # /grade stays lenient whatever the server default of /score is.
    grade = httpx.post(
        f"{boxed_service_url}/grade", json={"answer": "41", "reference": "41"}, timeout=60
    )
    assert grade.json()["correct"] is True


HIDDEN = "<think>2 + 2 = 4, so \\boxed{4}</think>"
TRUNCATED = "<think>2 + 2 = 4, so \\boxed{4}"
AFTER = "<think>maybe \\boxed{5}</think>\n\\boxed{4}"


@pytest.mark.parametrize("policy", ["boxed", "marked", "lenient"])
def test_only_the_answer_after_the_reasoning_block_counts(service_url: str, policy: str) -> None:
    hidden, truncated, after, plain = _score(
        service_url, [HIDDEN, TRUNCATED, AFTER, "\\boxed{4}"], "4", extraction=policy
    )
    # The answer inside the block is judged (a wrong one would earn the wrong reward), but a
    # right one is not credited: the no-answer reward.
    assert (hidden["reward"], hidden["extracted"]) == (-0.5, "4")
    assert hidden["components"]["after_reasoning"] == 1.0
    assert hidden["components"]["answer_hidden"] == 1.0
    assert "after the reasoning block" in hidden["detail"]
    assert (truncated["reward"], truncated["extracted"]) == (-0.5, "4")
    assert truncated["components"]["reasoning_unclosed"] == 1.0
    assert truncated["components"]["answer_hidden"] == 1.0
    assert "never closes" in truncated["detail"]
    assert (after["reward"], after["extracted"]) == (1.0, "4")
    assert after["components"]["after_reasoning"] == 1.0
    assert plain["reward"] == 1.0
    for result in (hidden, truncated, after, plain):
        assert result["components"]["reasoning_rule"] == 1.0
    assert (plain["components"]["after_reasoning"], plain["components"]["reasoning_unclosed"]) == (
        0.0,
        0.0,
    )


def test_the_reasoning_rule_can_be_turned_off_per_request(service_url: str) -> None:
    hidden, truncated = _score(service_url, [HIDDEN, TRUNCATED], "4", answer_after_reasoning=False)
    for result in (hidden, truncated):
        assert (result["reward"], result["extracted"]) == (1.0, "4")
        assert result["components"]["reasoning_rule"] == 0.0


def test_the_reasoning_rule_has_a_server_default(boxed_service_url: str) -> None:
    off = _score(boxed_service_url, [HIDDEN, TRUNCATED], "4")
    assert [r["reward"] for r in off] == [1.0, 1.0]
    assert [r["components"]["reasoning_rule"] for r in off] == [0.0, 0.0]
    on = _score(boxed_service_url, [HIDDEN, TRUNCATED], "4", answer_after_reasoning=True)
    assert [r["reward"] for r in on] == [-0.5, -0.5]


@pytest.mark.parametrize(
    ("policy", "hedge"),
    [
        ("lenient", "<think>16 or 17?</think>\\boxed{16}, \\boxed{17}"),
        ("lenient", "<think>16 or 17?</think>So $16$ or $17$."),
        ("lenient", "<think>hmm</think>The candidates are $16, 17, 18$."),
        ("marked", "<think>16 or 17?</think>The answer is 16 or 17"),
        ("marked", "<think>hmm</think><answer>16, 17, 18</answer>"),
    ],
)
def test_hedges_after_the_reasoning_block_stay_wrong(
    service_url: str, policy: str, hedge: str
) -> None:
    (result,) = _score(service_url, [hedge], "16", extraction=policy)
    assert result["reward"] == -1.0, result
    assert result["components"]["after_reasoning"] == 1.0
