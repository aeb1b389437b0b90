"""Symbolic answers: polynomials (expanded or factored) and simplified square roots."""

from __future__ import annotations

import random
from fractions import Fraction
from math import isqrt

import sympy

from benchmarks.math_dataset.notation import linear_tex, poly_tex
from benchmarks.math_dataset.problem import Problem, distinct


def gen_expression(rng: random.Random) -> Problem:
    steps: tuple[str, ...]
    kind = rng.randrange(3)
    nz = [i for i in range(-9, 10) if i != 0]
    if kind == 0:
        a, b = rng.choice(nz), rng.choice(nz)
        truth = (1, a + b, a * b)
        q = (
            f"A rectangle has side lengths $x{a:+d}$ and $x{b:+d}$. "
            "Find an expression for its area."
        )
        steps = ("The area is the product of the side lengths.", "We multiply the two binomials.")
        ref = poly_tex(truth)
        factored = [f"({linear_tex(a)})({linear_tex(b)})", f"({linear_tex(b)})({linear_tex(a)})"]
        if a == b:
            factored = [f"({linear_tex(a)})^{{2}}", f"({linear_tex(a)})({linear_tex(a)})"]
        correct = [ref, poly_tex(truth, ascending=True), *factored]
        cands: list[tuple[int, ...]] = [
            (1, 0, a * b),
            (1, a + b, a + b),
            (1, a * b, a + b),
            (1, -(a + b), a * b),
        ]
    elif kind == 1:
        a = rng.choice(nz)
        truth = (3, 6 * a, 3 * a * a)
        q = f"Differentiate $f(x) = ({linear_tex(a)})^{{3}}$."
        steps = ("By the chain rule, the derivative of $u^3$ is $3u^2 u'$.", "Here $u' = 1$.")
        ref = f"3({linear_tex(a)})^{{2}}"
        correct = [
            ref,
            poly_tex(truth),
            f"3({poly_tex((1, 2 * a, a * a))})",
            poly_tex(truth, ascending=True),
        ]
        cands = [
            (1, 2 * a, a * a),
            (3, 0, 3 * a * a),
            (3, -6 * a, 3 * a * a),
            (3, 3 * a, 3 * a * a),
        ]
    else:
        a, c = rng.choice(nz), rng.choice(nz)
        truth = (1, 2 * a, a * a + c)
        q = f"Let $f(x) = x^2{c:+d}$ and $g(x) = {linear_tex(a)}$. Find $f(g(x))$."
        steps = (f"Substitute $g(x) = {linear_tex(a)}$ into $f$.", "Then expand the square.")
        ref = poly_tex(truth)
        correct = [ref, f"({linear_tex(a)})^{{2}}{c:+d}", poly_tex(truth, ascending=True)]
        if a * a + c != 0:
            correct.append(f"({linear_tex(a)})^2{c:+d}")
        cands = [(1, 0, a * a + c), (1, 0, a + c), (1, a, a * a + c), (1, 2 * a, a + c)]
    wrong = [poly_tex(w) for w in cands if w != truth]
    return Problem("latex_expression", ref, q, steps, distinct(correct), distinct(wrong))


def _sqrt_parts(n: int) -> tuple[int, int]:
    """n = a^2 * b with b squarefree."""
    a = 1
    for p, e in sympy.factorint(n).items():
        a *= int(p) ** (int(e) // 2)
    return a, n // (a * a)


def gen_root(rng: random.Random) -> Problem:
    steps: tuple[str, ...]
    kind = rng.randrange(3)
    # every value is a positive real; compare squares (exact rationals)
    forms: list[tuple[str, Fraction]]
    wrongs: list[tuple[str, Fraction]]
    if kind == 0:
        while True:
            m = rng.randint(2, 5)
            p0, q0 = rng.randint(1, 6), rng.randint(1, 6)
            n = m * m * (p0 * p0 + q0 * q0)
            if isqrt(n) ** 2 != n:
                break
        p, qq = m * p0, m * q0
        a, b = _sqrt_parts(n)
        sq = Fraction(n)
        q = f"Find the distance from the origin to the point $({p}, {qq})$."
        steps = (
            f"By the Pythagorean theorem the distance is $\\sqrt{{{p}^2 + {qq}^2}}$.",
            f"That is $\\sqrt{{{p * p} + {qq * qq}}}$.",
        )
        ref = f"{a}\\sqrt{{{b}}}"
        forms = [
            (ref, sq),
            (f"\\sqrt{{{n}}}", sq),
            (f"{a}\\cdot\\sqrt{{{b}}}", sq),
            (f"\\sqrt{{{b}}}\\cdot {a}", sq),
        ]
        wrongs = [
            (f"{a}\\sqrt{{{b + 1}}}", Fraction(a * a * (b + 1))),
            (f"{p + qq}", Fraction((p + qq) ** 2)),
            (f"{a + 1}\\sqrt{{{b}}}", Fraction((a + 1) ** 2 * b)),
            (f"\\sqrt{{{p + qq}}}", Fraction(p + qq)),
            (f"{n}", Fraction(n * n)),
        ]
    else:
        r, word = (2, "square") if kind == 1 else (3, "equilateral triangle")
        s = rng.randint(2, 40)
        sq = Fraction(s * s, 2) if r == 2 else Fraction(3 * s * s, 4)
        if r == 2:
            q = f"A square has a diagonal of length {s}. Find its side length."
            steps = (
                "If the side is $t$, the diagonal is $t\\sqrt{2}$.",
                f"So $t\\sqrt{{2}} = {s}$.",
            )
        else:
            q = f"Find the height of an {word} with side length {s}."
            steps = (
                "The height splits the triangle into two 30-60-90 triangles.",
                f"The height is $\\sqrt{{{s}^2 - ({s}/2)^2}}$.",
            )
        if s % 2 == 0:
            half = s // 2
            ref = f"\\sqrt{{{r}}}" if half == 1 else f"{half}\\sqrt{{{r}}}"
        else:
            ref = f"\\frac{{{s}\\sqrt{{{r}}}}}{{2}}"
        forms = [
            (ref, sq),
            (f"\\frac{{{s}\\sqrt{{{r}}}}}{{2}}", sq),
            (f"\\frac{{{s}}}{{2}}\\sqrt{{{r}}}", sq),
            (f"\\frac{{\\sqrt{{{r}}}}}{{2}}\\cdot {s}", sq),
        ]
        if r == 2:
            forms.append((f"\\frac{{{s}}}{{\\sqrt{{2}}}}", sq))
        elif s % 2 == 0:
            forms.append((f"\\sqrt{{{3 * s * s // 4}}}", sq))
        else:
            forms.append((f"\\frac{{\\sqrt{{{3 * s * s}}}}}{{2}}", sq))
        other = 3 if r == 2 else 2
        wrongs = [
            (f"{s}\\sqrt{{{r}}}", Fraction(r * s * s)),
            (f"\\frac{{{s}}}{{2}}", Fraction(s * s, 4)),
            (f"\\frac{{{s}\\sqrt{{{other}}}}}{{2}}", Fraction(other * s * s, 4)),
            (f"\\frac{{{s}\\sqrt{{{r}}}}}{{4}}", Fraction(r * s * s, 16)),
        ]
    for _, v in forms:
        assert v == sq
    correct = [f for f, _ in forms]
    wrong = [f for f, v in wrongs if v != sq]
    return Problem("root", ref, q, steps, distinct(correct), distinct(wrong))
