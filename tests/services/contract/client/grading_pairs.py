"""Answers and references the grading tests send both to a service and in-process."""

from __future__ import annotations

from benchmarks.math_corpus import CASES

# A few dozen pairs from the hand-labelled corpus (every category), plus what datasets and
# models add: numeric references, reasoning blocks, answers in a closing sentence.
PAIRS: list[tuple[str, str | int | float]] = [
    (case.answer, case.reference) for case in CASES[:: max(1, len(CASES) // 40)]
] + [
    ("So we get $\\frac{1}{2}$", 0.5),
    ("\\boxed{4}", 4),
    ("The answer is 0.1", 0.1),
    ("<think>maybe 3</think> The answer is 4.", "4"),
    ("<think>the answer is 4", "4"),
    ("I do not know.", "7"),
    ("\\boxed{12}", 2**70),
    ("\\boxed{4}", ""),  # no label: an error, never a wrong answer
]
