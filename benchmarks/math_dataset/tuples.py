"""Ordered-pair answers: midpoints and solutions of 2x2 linear systems."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from benchmarks.math_dataset.notation import coef_tex, frac_tex, terminates
from benchmarks.math_dataset.problem import Problem, distinct


def _tuple_tex(vals: Sequence[Fraction], style: str = "frac", lr: bool = False) -> str:
    body = ", ".join(frac_tex(v, style) for v in vals)
    return f"\\left({body}\\right)" if lr else f"({body})"


def gen_tuple(rng: random.Random) -> Problem:
    steps: tuple[str, ...]
    if rng.random() < 0.5:
        pts = [(rng.randint(-12, 12), rng.randint(-12, 12)) for _ in range(2)]
        (x1, y1), (x2, y2) = pts
        if (x1 + x2) % 2 == 0 and (y1 + y2) % 2 == 0:
            x2 += 1  # keep at least one half-integer coordinate
        truth = [Fraction(x1 + x2, 2), Fraction(y1 + y2, 2)]
        q = f"Find the midpoint of the segment from $({x1}, {y1})$ to $({x2}, {y2})$."
        steps = (
            "The midpoint averages the coordinates.",
            f"So we compute $\\frac{{{x1}+{x2}}}{{2}}$ and $\\frac{{{y1}+{y2}}}{{2}}$.",
        )
    else:
        while True:
            a1, b1, a2, b2 = (rng.randint(-6, 6) for _ in range(4))
            det = a1 * b2 - a2 * b1
            if det != 0 and 0 not in (a1, b1, a2, b2):
                break
        for _ in range(10):  # prefer a non-integer solution
            c1, c2 = rng.randint(-20, 20), rng.randint(-20, 20)
            truth = [Fraction(c1 * b2 - c2 * b1, det), Fraction(a1 * c2 - a2 * c1, det)]
            if any(v.denominator > 1 for v in truth):
                break
        eq1 = f"{coef_tex(a1)} {'+' if b1 > 0 else '-'} {coef_tex(abs(b1), 'y')} = {c1}"
        eq2 = f"{coef_tex(a2)} {'+' if b2 > 0 else '-'} {coef_tex(abs(b2), 'y')} = {c2}"
        q = f"Solve the system ${eq1}$, ${eq2}$. Give the answer as $(x, y)$."
        steps = (
            f"The determinant is ${a1}\\cdot{b2} - ({a2})\\cdot({b1}) = {det}$.",
            "By Cramer's rule we get each coordinate.",
        )
    x, y = truth
    ref = _tuple_tex(truth)
    correct = [
        ref,
        _tuple_tex(truth, lr=True),
        _tuple_tex(truth, "slash"),
        _tuple_tex(truth, "dfrac"),
    ]
    if all(terminates(v) for v in truth) and any(v.denominator > 1 for v in truth):
        correct.append(_tuple_tex(truth, "decimal"))
    if x < 0 or y < 0:
        correct.append(_tuple_tex(truth, "negnum"))
    cands = [[y, x], [x, -y], [-x, y], [x + 1, y], [x, y - 1]]
    wrong = [_tuple_tex(w) for w in cands if w != truth]
    return Problem("tuple", ref, q, steps, distinct(correct), distinct(wrong))
