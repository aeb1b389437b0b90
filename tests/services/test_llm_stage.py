"""What the LLM verifier is shown for an answer the rule found, or did not find."""

from __future__ import annotations

from services.llm_stage import BEST_EFFORT_CHARS, best_effort_answer


def test_a_marked_answer_is_sent_as_extracted() -> None:
    assert best_effort_answer("Adding up, we get \\boxed{\\frac{1}{2}}.") == "\\frac{1}{2}"
    assert best_effort_answer("#### 18") == "18"


def test_without_a_marker_the_verifier_sees_the_completion_tail() -> None:
    prose = "We add two and two, which gives four, and that settles it."
    assert best_effort_answer(f"  {prose}\n") == prose
    long = "x" * 5000 + " so the total is four apples"
    tail = best_effort_answer(long)
    assert len(tail) == BEST_EFFORT_CHARS and tail.endswith("so the total is four apples")


def test_huge_marked_answers_are_bounded() -> None:
    assert len(best_effort_answer("\\boxed{" + "1" * 10_000 + "}")) == BEST_EFFORT_CHARS
