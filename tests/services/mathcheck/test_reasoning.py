"""The reasoning-block rule: an answer counts only after the closed reasoning block, under
every extraction policy; attacks that hide the answer in the block or leave it open."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.contract.protocol import ExtractionPolicy
from services.mathcheck.extraction import extract_answer
from services.mathcheck.reasoning import ReasoningRule, committed


def answer(completion: str, policy: ExtractionPolicy, enabled: bool = True) -> str | None:
    """The answer the math judge extracts: the rule first, then the policy."""
    text = committed(completion, enabled).text(completion)
    return None if text is None else extract_answer(text, policy).answer


POLICIES = list(ExtractionPolicy)

# Each of these holds an answer only where it must not count: no policy finds one.
NO_COMMITTED_ANSWER = [
    # the answer only inside the block, nothing after it
    "<think>2 + 2 = 4, so \\boxed{4}</think>",
    "<think>The answer is 4.</think>\n",
    "<think>#### 4</think>",
    "<reasoning>\\boxed{4}</reasoning>",
    "<thinking>\\boxed{4}</thinking>   ",
    "<|begin_of_thought|>\\boxed{4}<|end_of_thought|>",
    # an <answer> tag inside the block
    "<think><answer>4</answer></think>",
    "<think>draft</think><think><answer>\\boxed{4}</answer></think>",
    # a block that never closes (a truncated completion)
    "<think>We have 2 + 2 = 4, so the answer is \\boxed{4}",
    "<think>\\boxed{4}",
    "<reasoning><answer>4</answer>",
    "<THINK>\\boxed{4}",
    # a block closed, an answer, then a new block left open
    "<think>a</think>\\boxed{4}<think>checking once more",
    # upper case and stray spaces in the tags are still tags
    "<THINK>\\boxed{4}</THINK>",
    "<Think>\\boxed{4}</ think >",
    "< think >\\boxed{4}</Reasoning>",
    # nested and duplicated tags: only the text after the last closing tag counts
    "<think><think>\\boxed{4}</think>\\boxed{4}</think>",
    "<think>\\boxed{4}</think></think>",
    "<think>x</think>\\boxed{4}</think>",
    "<think>\\boxed{4}</think>\n<think>\\boxed{4}</think>",
    # a closing tag spelled another way does not close the block
    "<think>\\boxed{4}<\\think>",
    "<think>\\boxed{4}</thinkk>",
    # the chat template opened the block in the prompt: the completion starts inside it
    "\\boxed{4}</think>",
]


@pytest.mark.parametrize("completion", NO_COMMITTED_ANSWER)
@pytest.mark.parametrize("policy", POLICIES)
def test_an_answer_hidden_in_the_reasoning_counts_under_no_policy(
    completion: str, policy: ExtractionPolicy
) -> None:
    assert answer(completion, policy) is None


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        # an answer inside the block and a different one after: the one after counts
        ("<think>maybe \\boxed{5}</think>\nSo \\boxed{4}", "4"),
        ("<think><answer>5</answer></think><answer>\\boxed{4}</answer>", "4"),
        ("<THINK>\\boxed{5}</THINK> The answer is \\boxed{4}", "4"),
        ("<think>\\boxed{5}</think>\\boxed{5}</think>\\boxed{4}", "4"),
        ("<reasoning>#### 5</reasoning>\n\\boxed{4}", "4"),
        ("<|begin_of_thought|>5<|end_of_thought|>\\boxed{4}", "4"),
        # the opening tag was in the prompt
        ("We try 5, it fails.\n</think>\n\\boxed{4}", "4"),
        # the usual layout
        ("<think>\n2 + 2 = 4\n</think>\n<answer>\\boxed{4}</answer>", "4"),
    ],
)
@pytest.mark.parametrize("policy", POLICIES)
def test_the_answer_after_the_block_counts(
    completion: str, expected: str, policy: ExtractionPolicy
) -> None:
    assert answer(completion, policy) == expected


@pytest.mark.parametrize(
    ("completion", "policy", "expected"),
    [
        ("<think><answer>5</answer></think><answer>4</answer>", ExtractionPolicy.MARKED, "4"),
        ("<reasoning>#### 5</reasoning>\n#### 4", ExtractionPolicy.LENIENT, "4"),
        # a bare answer after the block is a bare answer
        ("<think>2 + 2 = 4</think>4", ExtractionPolicy.MARKED, "4"),
        ("<think>2 + 2 = 4</think>\n$4$", ExtractionPolicy.LENIENT, "4"),
    ],
)
def test_each_policy_reads_the_text_after_the_block(
    completion: str, policy: ExtractionPolicy, expected: str
) -> None:
    assert answer(completion, policy) == expected


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        # Hedges stay rejected after the block: several differing boxes are one list answer
        # (which no single reference equals), a correction takes the last box.
        ("<think>x</think>\\boxed{16}, \\boxed{17}", "16, 17"),
        ("<think>x</think>$16$ or $17$", "16, 17"),
    ],
)
def test_hedges_after_the_block_stay_lists(completion: str, expected: str) -> None:
    assert answer(completion, ExtractionPolicy.LENIENT) == expected


@pytest.mark.parametrize(
    ("completion", "rule"),
    [
        ("\\boxed{4}", ReasoningRule.NO_BLOCK),
        ("<think>a</think>\\boxed{4}", ReasoningRule.AFTER_BLOCK),
        ("a</think>\\boxed{4}", ReasoningRule.AFTER_BLOCK),
        ("<think>\\boxed{4}", ReasoningRule.UNCLOSED),
        ("<think>a</think>b<reasoning>c", ReasoningRule.UNCLOSED),
    ],
)
def test_the_rule_that_applied_is_reported(completion: str, rule: ReasoningRule) -> None:
    assert committed(completion).rule is rule
    assert committed(completion, enabled=False).rule is ReasoningRule.OFF


@pytest.mark.parametrize("policy", POLICIES)
def test_turned_off_the_whole_completion_is_searched(policy: ExtractionPolicy) -> None:
    # For a model that writes no reasoning blocks, a "<think>" is just text.
    assert answer("<think>\\boxed{4}", policy, enabled=False) == "4"
    assert answer("<think>\\boxed{4}</think>", policy, enabled=False) == "4"


@pytest.mark.parametrize(
    "completion",
    [
        "<think>" * 1_000_000,
        "</think>" * 1_000_000,
        "<" + " " * 5_000_000,
        "< think" * 1_000_000,
        "<|" * 2_000_000,
    ],
    ids=["open-flood", "close-flood", "space-flood", "half-tags", "pipe-flood"],
)
def test_hostile_tag_floods_are_linear(completion: str) -> None:
    started = time.monotonic()
    committed(completion)
    assert time.monotonic() - started < 5  # tens of ms measured


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<>/| thinkTHINKreasoning\\boxed{4}", max_size=120))
def test_the_committed_text_is_a_suffix_without_an_open_block(text: str) -> None:
    scope = committed(text)
    searched = scope.text(text)
    if searched is not None:
        assert text.endswith(searched)
        # what is searched holds no opening tag: nothing of a block can be credited
        assert committed(searched).rule in (ReasoningRule.NO_BLOCK, ReasoningRule.AFTER_BLOCK)
