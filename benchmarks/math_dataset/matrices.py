"""Matrix answers: sums, products and scalar multiples of 2x2 matrices."""

from __future__ import annotations

import random
from fractions import Fraction

from benchmarks.math_dataset.notation import frac_tex
from benchmarks.math_dataset.problem import Problem, distinct

_Mat = tuple[tuple[Fraction, ...], ...]


def _mat_tex(m: _Mat, env: str = "pmatrix", style: str = "frac", spaced: bool = False) -> str:
    amp, nl = (" & ", " \\\\ ") if spaced else ("&", "\\\\")
    body = nl.join(amp.join(frac_tex(v, style) for v in row) for row in m)
    if env == "array":
        cols = "c" * len(m[0])
        return f"\\left(\\begin{{array}}{{{cols}}}{body}\\end{{array}}\\right)"
    return f"\\begin{{{env}}}{body}\\end{{{env}}}"


def gen_matrix(rng: random.Random) -> Problem:
    steps: tuple[str, ...]

    def rand_mat() -> _Mat:
        return tuple(tuple(Fraction(rng.randint(-9, 9)) for _ in range(2)) for _ in range(2))

    a, b = rand_mat(), rand_mat()
    kind = rng.randrange(3)
    if kind == 0:
        truth = tuple(tuple(a[i][j] + b[i][j] for j in range(2)) for i in range(2))
        q = f"Compute $A + B$ for $A = {_mat_tex(a)}$ and $B = {_mat_tex(b)}$."
        steps = ("Matrix addition is entrywise.",)
        extra: list[_Mat] = [tuple(tuple(a[i][j] - b[i][j] for j in range(2)) for i in range(2))]
    elif kind == 1:
        truth = tuple(
            tuple(sum((a[i][k] * b[k][j] for k in range(2)), Fraction(0)) for j in range(2))
            for i in range(2)
        )
        q = f"Compute $AB$ for $A = {_mat_tex(a)}$ and $B = {_mat_tex(b)}$."
        steps = ("Entry $(i, j)$ of $AB$ is row $i$ of $A$ dotted with column $j$ of $B$.",)
        extra = [
            tuple(tuple(a[i][j] * b[i][j] for j in range(2)) for i in range(2)),
            tuple(
                tuple(sum((b[i][k] * a[k][j] for k in range(2)), Fraction(0)) for j in range(2))
                for i in range(2)
            ),
        ]
    else:
        c = Fraction(1, 2)
        truth = tuple(tuple(c * a[i][j] for j in range(2)) for i in range(2))
        q = f"Compute $\\frac{{1}}{{2}}A$ for $A = {_mat_tex(a)}$."
        steps = ("Scalar multiplication multiplies every entry.",)
        extra = [tuple(tuple(2 * a[i][j] for j in range(2)) for i in range(2))]
    ref = _mat_tex(truth)
    correct = [
        ref,
        _mat_tex(truth, "bmatrix"),
        _mat_tex(truth, "array"),
        _mat_tex(truth, spaced=True),
        _mat_tex(truth, "bmatrix", spaced=True),
    ]
    if any(v.denominator > 1 for row in truth for v in row):
        correct.append(_mat_tex(truth, style="decimal"))
        correct.append(_mat_tex(truth, "bmatrix", style="decimal"))
    t = truth
    cands: list[_Mat] = [
        ((t[0][0], t[1][0]), (t[0][1], t[1][1])),
        ((t[0][1], t[0][0]), (t[1][0], t[1][1])),
        ((t[0][0], t[0][1]), (t[1][0], t[1][1] + 1)),
        ((-t[0][0], t[0][1]), (t[1][0], t[1][1])),
        *extra,
    ]
    wrong = [_mat_tex(w) for w in cands if w != truth]
    return Problem("matrix", ref, q, steps, distinct(correct), distinct(wrong))
