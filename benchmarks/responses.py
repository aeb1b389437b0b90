"""Labelled pairs of whole model responses, built from a worked solution and the final
answers it closes with: the fresh rounds (``fresh_pairs_3.py``, ``fresh_pairs_4.py``) are
written with it."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.math_corpus import Case

# How responses close, in the styles models write; each answer takes the next one in turn.
CLOSINGS: tuple[Callable[[str, str], str], ...] = (
    lambda work, answer: f"{work}\n\nTherefore, the final answer is $\\boxed{{{answer}}}$.",
    lambda work, answer: f"{work}\n\n**Final Answer**\n\\[\n\\boxed{{{answer}}}\n\\]",
    lambda work, answer: f"<think>\n{work}\n</think>\n\n<answer>{answer}</answer>",
    lambda work, answer: (
        f"{work}\nFinal Answer: The final answer is ${answer}$. I hope it is correct."
    ),
    lambda work, answer: f"{work}\n\nThe answer is ${answer}$.",
    lambda work, answer: f"{work}\n\nSo the answer is \\(\\boxed{{{answer}}}\\).",
    lambda work, answer: (
        f"{work}\n\n\\[\n\\boxed{{{answer}}}\n\\]\n\nLet me know if you would like any step "
        "explained in more detail!"
    ),
    lambda work, answer: f"{work}\n\nThus, the answer is: $\\boxed{{{answer}}}$",
)


class Responses:
    """The pairs of one round, in the order written."""

    def __init__(self) -> None:
        self.rows: list[Case] = []

    def pairs(
        self, kind: str, reference: str, work: str, right: list[str], wrong: list[str]
    ) -> None:
        """One worked solution closed with each answer: equivalent ones, then close wrong
        ones."""
        for answer, label in [(a, True) for a in right] + [(a, False) for a in wrong]:
            closing = CLOSINGS[len(self.rows) % len(CLOSINGS)]
            self.rows.append(Case(kind, reference, closing(work, answer), label, False))

    def whole(self, kind: str, reference: str, response: str, label: bool) -> None:
        """A response written out in full (its closing is part of what is measured)."""
        self.rows.append(Case(kind, reference, response, label, False))

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(case.category for case in self.rows))

    @property
    def cases(self) -> tuple[Case, ...]:
        return tuple(self.rows)
