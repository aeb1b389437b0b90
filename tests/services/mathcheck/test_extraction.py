"""Extraction: the final answer under each policy; the reasoning-block rule (an answer counts
only after the closed reasoning block, under every extraction policy; attacks that hide the
answer in the block or leave it open)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.contract.protocol import ExtractionPolicy
from services.mathcheck.answer_types import Quantity
from services.mathcheck.extraction import (
    ExtractionMethod,
    ReasoningRule,
    committed,
    extract_answer,
    extract_boxed_answer,
    reference_answer,
)
from services.mathcheck.reading import read
from tests.services.mathcheck.extraction_cases import EXTRACTION_CASES


@pytest.mark.parametrize("case", EXTRACTION_CASES, ids=lambda c: c.completion[:40])
def test_extraction_corpus(case: object) -> None:
    from tests.services.mathcheck.extraction_cases import ExtractionCase

    assert isinstance(case, ExtractionCase)
    assert extract_answer(case.completion).answer == case.expected, case.note


@pytest.mark.parametrize(
    ("completion", "method"),
    [
        ("<answer>4</answer>", ExtractionMethod.ANSWER_TAG),
        ("so \\boxed{4}", ExtractionMethod.BOXED),
        ("so \\fbox{4}", ExtractionMethod.BOXED),
        ("Total\n#### 4", ExtractionMethod.GSM8K),
        ("Hence the final answer is 4.", ExtractionMethod.ANSWER_IS),
        ("## Answer\n4", ExtractionMethod.ANSWER_IS),
        ("4", ExtractionMethod.BARE),
        ("I could not solve it, sorry about that.", ExtractionMethod.NONE),
    ],
)
def test_method_is_reported(completion: str, method: ExtractionMethod) -> None:
    assert extract_answer(completion).method is method


_MATRIX = "\\left[\\begin{array}{cc} 1 & 2 \\\\ 3 & 4 \\end{array}\\right]"


@pytest.mark.parametrize(
    ("completion", "boxed", "marked", "lenient"),
    [
        ("42", None, "42", "42"),
        ("The answer is 41", None, "41", "41"),
        ("\\boxed{7}", "7", "7", "7"),
        ("<answer>7</answer>", None, "7", "7"),
        ("Total\n#### 7", None, "7", "7"),
        ("Answer $ 9 $", None, "Answer $ 9 $", "9"),
        ("Therefore $x \\geq 5$ is the solution.", None, None, "x \\geq 5"),
        ("\\boxed{1}, \\boxed{2}, \\boxed{3}", "1, 2, 3", "1, 2, 3", "1, 2, 3"),
        (
            "\\boxed{(2, 2)} \\quad \\text{and} \\quad \\boxed{(6, 2)}",
            "(2, 2), (6, 2)",
            "(2, 2), (6, 2)",
            "(2, 2), (6, 2)",
        ),
        ("So $x = \\boxed{-1}$ or $x = \\boxed{4}$.", "-1, 4", "-1, 4", "-1, 4"),
        ("I got \\boxed{4}. Checking again, the count is \\boxed{5}.", "5", "5", "5"),
        ("The solutions are $x=1$ and $x=2$.", None, None, "x=1, x=2"),
        # A marker's sentence that lists math spans lists them all (a hedge stays one), and
        # only where the list ends the sentence.
        ("The answer is $7$ or $8$.", None, "7, 8", "7, 8"),
        ("Final answer: $x = 7$ or maybe $x = 8$.", None, "x = 7, x = 8", "x = 7, x = 8"),
        ("\\boxed{7} or possibly \\boxed{8}", "7, 8", "7, 8", "7, 8"),
        ("The answer is $12$, and $12 = 3 \\cdot 4$ checks.", None, "12", "12"),
        ("The answer is $5$ and $5$.", None, "5", "5"),
        ("So the total is 12 apples, I think", None, None, "12"),
        ("Final Answer: The largest $n$ is 34.", None, "34", "34"),
        ("**Answer:** 10", None, "10", "10"),
        (_MATRIX, None, _MATRIX, _MATRIX),
        # lenient ranks like math-verify: a final-answer statement after the box wins ...
        (
            "So \\boxed{30} groups. Final Answer: The final answer is $2,400$. I hope it is "
            "correct.",
            "30",
            "30",
            "2,400",
        ),
        # ... and so does a number written in prose after the last math.
        ("We find $y = 2x + 1$, so there are 6 such lines.", None, None, "6"),
        # A final-answer sentence with a single number in it answers that number, with the
        # unit of a known kind that follows it.
        ("Final Answer: the train arrives 4 hours later.", None, "4 hours", "4 hours"),
        ("Final Answer: Jane started 3 days ago.", None, "3 days", "3 days"),
        ("Final Answer: Jane has 3 apples left.", None, "3", "3"),
        # Boxes written together are one (list) answer under every policy, so boxing several
        # candidates is a hedge, never its last box. They join across a math delimiter only
        # with a connective; inside one span they do; the same box twice is one answer.
        ("\\boxed{42} and \\boxed{42}", "42", "42", "42"),
        ("#### 41\n#### 42", None, "41, 42", "41, 42"),
        ("$$\\boxed{8}$$ \\boxed{15}", "15", "15", "15"),
        ("$\\boxed{3}\\boxed{4}$", "3, 4", "3, 4", "3, 4"),
        (
            "$$\\boxed{(2, 5)} \\text{ in the first case and } \\boxed{(4, 4)}$$",
            "(2, 5), (4, 4)",
            "(2, 5), (4, 4)",
            "(2, 5), (4, 4)",
        ),
        ("I got \\boxed{4}. Checking again, and it is \\boxed{5}.", "5", "5", "5"),
        # One word may stand before the connective (what the box before it counts), and a
        # box may give its value a name of its own: the names are kept. One name for all
        # is a list of roots; more words, or a sentence between, join nothing.
        ("\\boxed{1} papers and \\boxed{2} bins", "1, 2", "1, 2", "1, 2"),
        ("$a = \\boxed{3}$ and $b = \\boxed{4}$", "a = 3, b = 4", "a = 3, b = 4", "a = 3, b = 4"),
        ("a = \\boxed{3}, so b = \\boxed{4}", "4", "4", "4"),
        ("It is \\boxed{3} apples, and then \\boxed{5}", "5", "5", "5"),
        ("It is \\boxed{3} apples in all and \\boxed{5}", "5", "5", "5"),
        # A box written with a doubled backslash, as in JSON-escaped text.
        (
            "\\\\boxed{(0, 1)}, \\\\boxed{(1, 0)}",
            "(0, 1), (1, 0)",
            "(0, 1), (1, 0)",
            "(0, 1), (1, 0)",
        ),
        # An open-ended list keeps its ellipsis.
        ("$1, 2, 3, ...$", None, "1, 2, 3, ...", "1, 2, 3, ..."),
        # A lone "$" is a currency sign: the text is not a bare answer.
        ("Total : 4,50 $", None, None, "4,50"),
        # A short phrase is an answer under lenient (a refusal is not: see below).
        ("no real solutions", None, None, "no real solutions"),
        ("isosceles right triangle", None, None, "isosceles right triangle"),
    ],
)
def test_policies(
    completion: str, boxed: str | None, marked: str | None, lenient: str | None
) -> None:
    assert extract_answer(completion, ExtractionPolicy.BOXED).answer == boxed
    assert extract_answer(completion, ExtractionPolicy.MARKED).answer == marked
    assert extract_answer(completion, ExtractionPolicy.LENIENT).answer == lenient


@pytest.mark.parametrize(
    ("completion", "answer", "quantity"),
    [
        # A unit of a known kind after the number in prose stays with it, rates too.
        ("The car travels at 60 miles per hour.", "60 miles per hour", True),
        ("The speed is 36 meters per second.", "36 meters per second", True),
        ("10 meters per second", "10 meters per second", True),
        ("The speed is 60 km/h.", "60 km/h", True),
        ("The area is 12 square centimeters.", "12 square centimeters", True),
        ("It holds 3 cubic meters of water.", "3 cubic meters", True),
        ("The area is 9 cm^2.", "9 cm^2", True),  # the exponent is no answer of its own
        ("The volume is 8 m^{3}.", "8 m^{3}", True),
        ("The answer is 60 miles per hour.", "60 miles per hour", True),
        ("So it takes 3 hours.", "3 hours", True),
        ("1 \\text{ mile per minute}", "1 \\text{ mile per minute}", True),
        # A word of no known kind, or "in" as a preposition, is no unit.
        ("There are 5 apples.", "5", False),
        ("It is 5 in total.", "5", False),
        ("In 2020 he was 5.", "5", False),
        # A power is one number.
        ("There are 2^{10} ways.", "2^{10}", False),
        ("So there are 2^5 subsets", "2^5", False),
    ],
)
def test_a_number_in_prose_keeps_its_unit(completion: str, answer: str, quantity: bool) -> None:
    found = extract_answer(completion, ExtractionPolicy.LENIENT).answer
    assert found == answer
    assert isinstance(read(found), Quantity) is quantity


@pytest.mark.parametrize(
    ("completion", "marked"),
    [
        ("\\boxed{7}", True),
        ("<answer>7</answer>", True),
        ("#### 7", True),
        ("The answer is 7", True),
        ("7", False),
        ("We get $7$.", False),
    ],
)
def test_marked_says_whether_a_marker_was_present(completion: str, marked: bool) -> None:
    assert extract_answer(completion, ExtractionPolicy.LENIENT).marked is marked


@pytest.mark.parametrize("policy", list(ExtractionPolicy))
def test_boxes_that_name_their_values_keep_the_names(policy: ExtractionPolicy) -> None:
    completion = "\\(y_1 = \\boxed{-2(x - 1)^2 + 5} \\) and \\( y_2 = \\boxed{3(x + 2)^2 - 2} \\)"
    named = "y_1 = -2(x - 1)^2 + 5, y_2 = 3(x + 2)^2 - 2"
    assert extract_answer(completion, policy).answer == named


def test_references_are_read_leniently_but_never_cut_to_a_number() -> None:
    assert reference_answer("\\boxed{(2, 2)} \\text{ and } \\boxed{(6, 2)}") == "(2, 2), (6, 2)"
    assert reference_answer("\\boxed{1} papers and \\boxed{2} bins") == "1, 2"
    assert reference_answer("$\\frac{1}{2}$") == "\\frac{1}{2}"
    assert reference_answer("Yes, after 3 more years") == "Yes, after 3 more years"


def test_escaped_dollar_inside_math_is_not_a_delimiter() -> None:
    completion = "Final Answer: The final answer is $\\$306.00$. I hope it is correct."
    assert extract_answer(completion).answer == "\\$306.00"
    assert extract_answer("The answer is $$\\frac{1}{2}$$.").answer == "\\frac{1}{2}"


def test_factorial_and_leading_dot_survive_cleaning() -> None:
    assert extract_answer("\\boxed{5!}").answer == "5!"
    assert extract_answer("\\boxed{.5}").answer == ".5"


@pytest.mark.parametrize(
    "completion",
    [
        "\\boxed{" * 200_000,
        "\\boxed{" + "{}" * 2_000_000,
        "<answer>" * 500_000,
        "answer is " * 300_000,
        "#### " * 500_000,
        "x" * 10_000_000,
        "$" * 5_000_000,
        "\\(" * 3_000_000,
        "$1$ and " * 1_000_000,
        "\\boxed{1}, " * 1_000_000,
        "1," * 5_000_000,
        "answer is the " * 500_000,
        "\\text{a} 1," * 1_000_000,
    ],
    ids=[
        "unclosed-boxes",
        "brace-flood",
        "open-tags",
        "answer-is-flood",
        "gsm-flood",
        "10MB",
        "dollar-flood",
        "paren-flood",
        "math-list-flood",
        "box-list-flood",
        "number-flood",
        "prose-answer-is-flood",
        "text-font-flood",
    ],
)
@pytest.mark.parametrize("policy", list(ExtractionPolicy))
def test_hostile_completions_are_linear(completion: str, policy: ExtractionPolicy) -> None:
    started = time.monotonic()
    extract_answer(completion, policy)
    assert time.monotonic() - started < 10  # well under 1 s measured


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_extraction_never_raises_and_is_deterministic(text: str) -> None:
    for policy in ExtractionPolicy:
        first = extract_answer(text, policy)
        assert first == extract_answer(text, policy)
        if first.answer is not None:
            assert first.answer == first.answer.strip()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="\\boxed{}fbox<answer>/ 12x#", max_size=200))
def test_box_matching_never_raises_on_brace_soup(text: str) -> None:
    boxed = extract_boxed_answer(text)
    assert boxed is None or boxed.count("{") >= 0


@pytest.mark.parametrize(
    "completion",
    ["no answer", "I dont know", "not sure", "I do not know.", "N/A", "I give up on this one."],
)
@pytest.mark.parametrize("policy", list(ExtractionPolicy))
def test_a_few_words_without_mathematics_are_no_answer(
    completion: str, policy: ExtractionPolicy
) -> None:
    assert extract_answer(completion, policy).answer is None


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
