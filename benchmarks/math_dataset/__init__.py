"""Deterministic synthetic benchmark for the math answer checker.

``build_dataset`` yields GRPO-style groups: for each generated reference answer,
``group_size`` short chain-of-thought completions, some correct (often written in
an equivalent but different form from the reference), some wrong (near misses),
and some with no extractable final answer.  Labels are right by construction:
every final answer is rendered from a value the generator knows, and wrong
answers are checked to differ from the truth before they are used.

One module per family of answers generates the problems (``arithmetic``,
``expressions``, ``sets``, ``tuples``, ``matrices``, ``text``), ``completions``
writes the completions around their answers, and ``dataset`` assembles the groups.

Run ``python -m benchmarks.math_dataset`` to print the composition.
"""

from benchmarks.math_dataset.dataset import (
    CATEGORIES,
    AnnotatedPair,
    Pair,
    build_annotated_dataset,
    build_dataset,
)
from benchmarks.math_dataset.summary import main
from benchmarks.math_dataset.trivial_judge import trivially_equal

__all__ = [
    "CATEGORIES",
    "AnnotatedPair",
    "Pair",
    "build_annotated_dataset",
    "build_dataset",
    "main",
    "trivially_equal",
]
