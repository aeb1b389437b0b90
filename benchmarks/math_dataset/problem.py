"""What a generator makes: one problem, its reference answer and answers known right or wrong."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """A generated question and the final answers a completion for it may give.

    ``correct`` starts with the reference's own spelling and goes on with equivalent forms;
    ``wrong`` holds near misses checked to differ from the truth; ``steps`` is the worked
    reasoning the completions show before their answer.
    """

    category: str
    reference: str
    question: str
    steps: tuple[str, ...]
    correct: tuple[str, ...]
    wrong: tuple[str, ...]


def distinct(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))
