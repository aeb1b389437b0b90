"""Hand-labelled final-answer extraction corpus.

Each case is a full model completion and the final-answer string a grader should
pull out of it, or ``None`` when the completion contains no answer.  Expected
strings are exactly the inner text with surrounding whitespace stripped; LaTeX is
kept as written inside the box / tag / marker.

Conventions used (notes repeat them where they matter):

* The last ``\\boxed{}`` / ``\\fbox{}`` wins when there are several.
* An ``<answer>...</answer>`` tag wins over anything inside ``<think>...</think>``;
  a ``\\boxed{}`` inside the answer tag yields the boxed content.
* ``#### x`` (GSM8K) yields ``x`` as written (thousands separators kept).
* "The answer is x." / "the final answer is $x$" yields ``x`` with the trailing
  period and the surrounding ``$`` (or ``\\(``/``\\)``) removed.
* A completion that is nothing but a short bare answer yields itself.
* No marker at all, an unclosed ``\\boxed{``, or an empty box / tag yields ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExtractionCase:
    completion: str
    expected: str | None
    note: str = ""


_LONG_NO_ANSWER = (
    "Let me think step by step. First compute 3 + 4 = 7. Then multiply by 2 to get 14. "
    "Hmm, wait, I need to double-check the problem statement before committing, because "
    "the second condition might change the count. If the boxes are distinguishable the "
    "count is different, so let me reconsider the setup from the beginning and enumerate "
    "the cases more carefully."
)

EXTRACTION_CASES: list[ExtractionCase] = [
    # --- \boxed{} basics -----------------------------------------------------------
    ExtractionCase(r"Adding the two parts gives 42, so the answer is \boxed{42}.", "42"),
    ExtractionCase(r"Therefore $\boxed{7}$.", "7"),
    ExtractionCase(r"\boxed{ 5 }", "5", "surrounding whitespace inside the box is stripped"),
    ExtractionCase(
        r"First I got \boxed{3}, but that ignores the overlap. Correcting, \boxed{5}.",
        "5",
        "last box wins",
    ),
    ExtractionCase(
        r"\boxed{5}\boxed{6}", "5, 6", "boxes written together are one list answer (a hedge)"
    ),
    ExtractionCase(
        "Check: 2 + 2 = 4 so $\\boxed{4}$ is consistent.\n\nFinal: $\\boxed{8}$",
        "8",
        "last box wins",
    ),
    # --- nested braces --------------------------------------------------------------
    ExtractionCase(r"So the probability is $\boxed{\frac{1}{2}}$.", r"\frac{1}{2}"),
    ExtractionCase(r"The solution set is $\boxed{\{1,2\}}$.", r"\{1,2\}"),
    ExtractionCase(r"Expanding, $\boxed{x^{2}+1}$.", "x^{2}+1"),
    ExtractionCase(r"$$\boxed{\dfrac{\sqrt{3}}{2}}$$", r"\dfrac{\sqrt{3}}{2}"),
    ExtractionCase(r"$$\boxed{2\sqrt{2}}$$", r"2\sqrt{2}"),
    ExtractionCase(r"\boxed{\left\{ 1, 2 \right\}}", r"\left\{ 1, 2 \right\}"),
    ExtractionCase(r"\boxed{\{x \mid x > 0\}}", r"\{x \mid x > 0\}"),
    ExtractionCase(
        r"Hence $\boxed{\begin{pmatrix}1&2\\3&4\end{pmatrix}}$.",
        r"\begin{pmatrix}1&2\\3&4\end{pmatrix}",
    ),
    ExtractionCase(r"The choice is \boxed{\text{(B)}}.", r"\text{(B)}"),
    ExtractionCase(r"The point is \boxed{(1, 2)}.", "(1, 2)"),
    ExtractionCase(
        r"The domain is \boxed{[0,1)}.",
        "[0,1)",
        "unbalanced brackets inside the box are not braces",
    ),
    ExtractionCase(r"She pays \boxed{\$18} in total.", r"\$18"),
    # --- \fbox and brace-less \boxed -------------------------------------------------
    ExtractionCase(r"The answer: \fbox{7}", "7"),
    ExtractionCase(r"\fbox{\frac{1}{3}}", r"\frac{1}{3}"),
    ExtractionCase(r"The answer is $\boxed 5$.", "5", "brace-less \\boxed takes one token"),
    ExtractionCase(r"Thus \boxed 9", "9", "brace-less \\boxed takes one token"),
    # --- <answer> tags ----------------------------------------------------------------
    ExtractionCase("<answer>42</answer>", "42"),
    ExtractionCase("<answer>\n  42  \n</answer>", "42", "whitespace inside the tag stripped"),
    ExtractionCase(r"<answer>\boxed{12}</answer>", "12", "box inside the tag -> box content"),
    ExtractionCase(
        r"<answer> \boxed{\frac{2}{3}} </answer>",
        r"\frac{2}{3}",
        "box inside the tag -> box content",
    ),
    ExtractionCase(
        "<think>\n6 * 2 = 12, double-checked.\n</think>\n<answer>12</answer>",
        "12",
    ),
    ExtractionCase(
        "<think>Maybe the answer is \\boxed{10}? No, I forgot the last term: 10 + 2 = 12."
        "</think><answer>12</answer>",
        "12",
        "answer tag wins over a box inside <think>",
    ),
    ExtractionCase(
        "<think>Try x = 2: no. Try x = 3: yes.</think>\n<answer>x = 3</answer>",
        "x = 3",
    ),
    ExtractionCase(
        "<think>I first thought \\boxed{10} but the total is 12.</think>\n"
        "The final answer is \\boxed{12}",
        "12",
        "the box after </think> wins",
    ),
    # --- GSM8K #### -------------------------------------------------------------------
    ExtractionCase("She has 40 + 2 = 42 apples.\n#### 42", "42"),
    ExtractionCase("#### 42\n", "42", "trailing newline"),
    ExtractionCase("Total cost: 1,000 + 234 = 1,234 dollars.\n#### 1,234", "1,234"),
    ExtractionCase("The temperature falls by 5 degrees.\n#### -5", "-5"),
    ExtractionCase(
        "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\n"
        "Natalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.\n#### 72",
        "72",
    ),
    # --- "The answer is ..." -------------------------------------------------------------
    ExtractionCase("The correct option is **(C)**.", "(C)", "a multiple choice's marker"),
    ExtractionCase("So the correct choice is B.", "B", "a multiple choice's marker"),
    ExtractionCase("最终答案：5", "5", "'the final answer:' in Chinese"),
    ExtractionCase("所以答案是 $\\frac{1}{2}$。", "\\frac{1}{2}", "'so the answer is' in Chinese"),
    ExtractionCase("答案为 7。", "7", "'the answer is' in Chinese, a full stop after it"),
    # An answer heading on a line of its own, as Markdown writes one: what follows it.
    ExtractionCase("## Answer\n0.75", "0.75", "a heading, then the answer"),
    ExtractionCase("**Final Answer**\n$\\frac{1}{2}$", "\\frac{1}{2}", "a bold heading"),
    ExtractionCase("### Final Answer\n\n\\[\nx = 3\n\\]\n", "x = 3", "a display under it"),
    ExtractionCase("## Final answer:\n**42**", "42", "emphasis is no part of it"),
    ExtractionCase("Answer:\n$$\n\\frac{1}{2}\n$$", "\\frac{1}{2}", "a $$ display whole"),
    ExtractionCase(
        "The final answer is 8.\n\n## Answer\n9", "9", "the last marker wins, a heading too"
    ),
    ExtractionCase(
        "## Answer\n9\n\nSo the final answer is 8.", "8", "the last marker wins, a sentence too"
    ),
    ExtractionCase(
        "We need the answer\nfirst, then more.", None, "a line that ends in the word is none"
    ),
    ExtractionCase("3 + 4 = 7. The answer is 7.", "7", "trailing period stripped"),
    ExtractionCase("Solving the linear equation, the final answer is $x=3$", "x=3"),
    ExtractionCase("So the final answer is $x=3$.", "x=3", "$ and trailing period stripped"),
    ExtractionCase(r"The answer is $\frac{1}{2}$.", r"\frac{1}{2}"),
    ExtractionCase(r"The answer is \boxed{9}.", "9"),
    ExtractionCase(r"The answer is $\boxed{7}$.", "7"),
    ExtractionCase("The final answer is 3.5.", "3.5", "only the sentence-final period goes"),
    ExtractionCase("The answer is 1,000.", "1,000"),
    ExtractionCase("The answer is: 15", "15", "colon after 'is' is not part of the answer"),
    ExtractionCase(
        "Final Answer: The final answer is $8$. I hope it is correct.",
        "8",
        "Minerva-style closing sentence",
    ),
    ExtractionCase(
        r"The answer is \(\frac{\pi}{2}\).",
        r"\frac{\pi}{2}",
        "\\( \\) delimiters stripped like $",
    ),
    # --- bare answers -------------------------------------------------------------------
    ExtractionCase("42", "42"),
    ExtractionCase(r"\frac{3}{4}", r"\frac{3}{4}"),
    ExtractionCase("  -3\n", "-3", "surrounding whitespace stripped"),
    ExtractionCase("0.5", "0.5"),
    # --- non-Latin prose around a box -------------------------------------------------
    ExtractionCase("Ответ: \\boxed{6}", "6"),
    # --- no answer ----------------------------------------------------------------------
    ExtractionCase(_LONG_NO_ANSWER, None, "numbers in prose are not an answer"),
    ExtractionCase(
        r"Combining the terms, the result is \boxed{\frac{1}{2}",
        None,
        "unclosed box (truncated generation)",
    ),
    ExtractionCase(r"so we get \boxed{", None, "unclosed box at the very end"),
    ExtractionCase(r"Therefore \boxed{}.", None, "empty box is no answer"),
    ExtractionCase("<think>Working on it: 3 * 4 = 12, then</think><answer></answer>", None),
    ExtractionCase(
        "<think>Let me set up the equation. If x is the number of pens then 3x + 2 = 17, "
        "so 3x = 15 and",
        None,
        "truncated inside <think>",
    ),
]
