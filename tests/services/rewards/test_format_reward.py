from __future__ import annotations

import pytest

from services.rewards.format_reward import ABSENT, LOOSE, STRICT, score_format
from services.rewards.policy import FormatWeights, RewardScale, combine

THOUGHT = " ".join(["word"] * 25)


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        (f"<think>{THOUGHT}</think><answer>4</answer>", STRICT),
        (f"  <think>{THOUGHT}</think>\n\n<answer>4</answer>\n", STRICT),
        (f"<reasoning>{THOUGHT}</reasoning><answer>4</answer>", STRICT),
        (f"<THINK>{THOUGHT}</THINK><ANSWER>4</ANSWER>", STRICT),
        (f"Hello <think>{THOUGHT}</think><answer>4</answer>", LOOSE),
        (f"<think>{THOUGHT}</think> so <answer>4</answer>", LOOSE),
        ("<think>a</think><answer>4</answer><answer>5</answer>", LOOSE),
        (f"<answer>4</answer><think>{THOUGHT}</think>", ABSENT),
        (f"<think>{THOUGHT}<answer>4</answer>", ABSENT),
        ("The answer is 4", ABSENT),
    ],
)
def test_format_compliance(completion: str, expected: float) -> None:
    assert score_format(completion, min_thinking_words=10).format == expected


def test_thinking_penalty_counts_words() -> None:
    short = score_format("<think>too short</think><answer>1</answer>", min_thinking_words=3)
    assert (short.thinking, short.thinking_words) == (-1.0, 2)
    enough = score_format("<think>one two three</think><answer>1</answer>", min_thinking_words=3)
    assert (enough.thinking, enough.thinking_words) == (0.0, 3)
    missing = score_format("just 1", min_thinking_words=1)
    assert missing.thinking == -1.0
    assert score_format("just 1", min_thinking_words=0).thinking == 0.0


def test_combine_weights_each_component() -> None:
    fmt = score_format("<think>a b</think><answer>1</answer>", min_thinking_words=5)
    weights = FormatWeights(answer=2.0, format=0.5, thinking=0.25)
    assert combine(1.0, fmt, weights) == pytest.approx(2.0 + 0.5 - 0.25)


def test_reward_scale_maps_probabilities() -> None:
    scale = RewardScale(correct=1.0, wrong=-1.0, no_answer=-0.5)
    assert scale.from_score(1.0) == 1.0
    assert scale.from_score(0.0) == -1.0
    assert scale.from_score(0.75) == pytest.approx(0.5)
