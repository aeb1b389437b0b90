"""Assembles the dataset: references by category, each with a GRPO group of completions."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.math_dataset.arithmetic import gen_decimal, gen_fraction, gen_gsm8k, gen_percentage
from benchmarks.math_dataset.completions import render_completion, render_no_answer
from benchmarks.math_dataset.expressions import gen_expression, gen_root
from benchmarks.math_dataset.matrices import gen_matrix
from benchmarks.math_dataset.problem import Problem
from benchmarks.math_dataset.sets import gen_interval, gen_set
from benchmarks.math_dataset.text import gen_text
from benchmarks.math_dataset.trivial_judge import trivially_equal
from benchmarks.math_dataset.tuples import gen_tuple


@dataclass(frozen=True)
class Pair:
    reference: str
    completion: str
    label: bool | None
    category: str


@dataclass(frozen=True)
class AnnotatedPair:
    """A pair plus what the generator knows about it (for reporting)."""

    pair: Pair
    answer: str | None
    needs_symbolic: bool


# Each category's generator and weight: categories whose correct answers can be written in
# several symbolically different forms get more references than those judged by plain
# number/string comparison.
_GENERATORS: dict[str, tuple[Callable[[random.Random], Problem], int]] = {
    "gsm8k_int": (gen_gsm8k, 1),
    "fraction": (gen_fraction, 3),
    "decimal": (gen_decimal, 2),
    "latex_expression": (gen_expression, 3),
    "root": (gen_root, 3),
    "set": (gen_set, 3),
    "interval": (gen_interval, 3),
    "tuple": (gen_tuple, 3),
    "matrix": (gen_matrix, 3),
    "percentage": (gen_percentage, 1),
    "text": (gen_text, 1),
}

CATEGORIES: tuple[str, ...] = tuple(_GENERATORS)


def _group_sizes(rng: random.Random, group_size: int) -> tuple[int, int, int]:
    n_none = round(group_size * rng.choice((0.0, 0.125, 0.125, 0.125, 0.25)))
    n_wrong = round(group_size * rng.choice((0.125, 0.25, 0.25, 0.25, 0.375)))
    n_none = min(n_none, max(group_size - 1, 0))
    n_wrong = min(n_wrong, max(group_size - n_none - 1, 0))
    return group_size - n_none - n_wrong, n_wrong, n_none


def _group(rng: random.Random, prob: Problem, group_size: int) -> list[AnnotatedPair]:
    n_correct, n_wrong, n_none = _group_sizes(rng, group_size)
    k = min(len(prob.correct), rng.choice((2, 3, 3)))
    # Pick the forms the correct completions use: the reference's own spelling at
    # most once, and forms that differ from it beyond string/number comparison
    # preferred (as a policy trained to "show work" tends to vary notation).
    others = list(prob.correct[1:])
    chosen: list[str] = [] if rng.random() < 0.7 else [prob.correct[0]]
    while others and len(chosen) < k:
        weights = [1 if trivially_equal(f, prob.reference) else 4 for f in others]
        chosen.append(others.pop(rng.choices(range(len(others)), weights)[0]))
    if not chosen:
        chosen = [prob.correct[0]]
    wrongs = list(prob.wrong)
    rng.shuffle(wrongs)
    wrong_chosen = wrongs[: rng.choice((1, 2, 2))] if wrongs else []
    plan: list[tuple[str | None, bool | None]] = []
    plan += [(chosen[i % len(chosen)], True) for i in range(n_correct)]
    if wrong_chosen:
        plan += [(wrong_chosen[i % len(wrong_chosen)], False) for i in range(n_wrong)]
    else:
        plan += [(None, None)] * n_wrong
    plan += [(None, None)] * n_none
    rng.shuffle(plan)
    seen: set[str] = set()
    out: list[AnnotatedPair] = []
    for ans, label in plan:
        text = ""
        for _attempt in range(30):
            if ans is None:
                text = render_no_answer(rng, prob)
            else:
                slip = None
                if label and wrong_chosen and rng.random() < 0.05:
                    slip = wrong_chosen[0]
                text = render_completion(rng, prob, ans, slip)
            if text not in seen:
                break
        else:
            text = f"{prob.question}\n{text}"
        seen.add(text)
        symbolic = label is True and ans is not None and not trivially_equal(ans, prob.reference)
        pair = Pair(reference=prob.reference, completion=text, label=label, category=prob.category)
        out.append(AnnotatedPair(pair=pair, answer=ans, needs_symbolic=symbolic))
    return out


def _category_cycle() -> list[str]:
    cycle: list[str] = []
    for round_ in range(max(weight for _, weight in _GENERATORS.values())):
        cycle += [c for c, (_, weight) in _GENERATORS.items() if weight > round_]
    return cycle


def build_annotated_dataset(
    n_references: int = 400, group_size: int = 8, seed: int = 0
) -> list[AnnotatedPair]:
    """Like :func:`build_dataset`, keeping the generator's per-pair annotations."""
    rng = random.Random(seed)
    cycle = _category_cycle()
    used: set[tuple[str, str]] = set()
    out: list[AnnotatedPair] = []
    for i in range(n_references):
        category = cycle[i % len(cycle)]
        generate = _GENERATORS[category][0]
        prob = generate(rng)
        for _ in range(50):
            if (prob.reference, prob.question) not in used:
                break
            prob = generate(rng)
        used.add((prob.reference, prob.question))
        out.extend(_group(rng, prob, group_size))
    return out


def build_dataset(n_references: int = 400, group_size: int = 8, seed: int = 0) -> list[Pair]:
    """GRPO-style groups of ``group_size`` labelled completions per reference."""
    return [ap.pair for ap in build_annotated_dataset(n_references, group_size, seed)]
