"""Set answers: finite sets of integers and unions of real intervals."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

import sympy

from benchmarks.math_dataset.notation import coef_tex, frac_tex, linear_tex, poly_tex, terminates
from benchmarks.math_dataset.problem import Problem, distinct


def _set_tex(items: Sequence[int], left_right: bool = False) -> str:
    body = ", ".join(str(i) for i in items)
    return f"\\left\\{{{body}\\right\\}}" if left_right else f"\\{{{body}\\}}"


def gen_set(rng: random.Random) -> Problem:
    steps: tuple[str, ...]
    if rng.random() < 0.6:
        roots = sorted(rng.sample([i for i in range(-9, 10) if i != 0], 3))
        r1, r2, r3 = roots
        coeffs = (1, -(r1 + r2 + r3), r1 * r2 + r1 * r3 + r2 * r3, -r1 * r2 * r3)
        q = f"Find the set of all real solutions of ${poly_tex(coeffs)} = 0$."
        steps = (
            "By the rational root theorem we test divisors of the constant term.",
            "Factoring completely gives three linear factors.",
        )
        truth = set(roots)
        wrong_sets = [
            [-r for r in roots],
            roots[:2],
            [roots[0], roots[1], -roots[2]],
            [*roots, 0],
        ]
    else:
        while True:
            n = rng.randint(6, 99)
            divs = [int(v) for v in sympy.divisors(n)]
            if 4 <= len(divs) <= 8:
                break
        roots = divs
        q = f"Find the set of positive divisors of {n}."
        steps = (
            f"We test each integer from 1 up to $\\sqrt{{{n}}}$.",
            "Each divisor pairs with its cofactor.",
        )
        truth = set(roots)
        wrong_sets = [roots[:-1], roots[1:], sorted([*roots, n // 2 + 1])]
    ref = _set_tex(roots)
    perms: list[str] = []
    for _ in range(6):
        shuffled = roots[:]
        rng.shuffle(shuffled)
        if shuffled != roots:
            perms.append(_set_tex(shuffled))
    correct = [ref, _set_tex(roots, left_right=True), *perms[:3], _set_tex(roots[::-1])]
    wrong = [_set_tex(w) for w in wrong_sets if set(w) != truth]
    return Problem("set", ref, q, steps, distinct(correct), distinct(wrong))


# An interval piece: (lo, lo_closed, hi, hi_closed); None is an infinite end.
_Piece = tuple[Fraction | None, bool, Fraction | None, bool]


def _end(v: Fraction | None, lo: bool, style: str, plus_inf: bool) -> str:
    if v is None:
        return "-\\infty" if lo else ("+\\infty" if plus_inf else "\\infty")
    return frac_tex(v, style)


def _interval_tex(
    pieces: Sequence[_Piece], style: str = "frac", plus_inf: bool = False, lr: bool = False
) -> str:
    parts = []
    for lo, lc, hi, hc in pieces:
        opening, closing = ("[" if lc else "("), ("]" if hc else ")")
        if lr:
            opening, closing = "\\left" + opening, "\\right" + closing
        lo_s, hi_s = _end(lo, True, style, plus_inf), _end(hi, False, style, plus_inf)
        parts.append(f"{opening}{lo_s}, {hi_s}{closing}")
    return " \\cup ".join(parts)


def gen_interval(rng: random.Random) -> Problem:
    steps: tuple[str, ...]
    rel_tex = {"<": "<", "<=": "\\le", ">": ">", ">=": "\\ge"}
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
    rel = rng.choice(list(rel_tex))
    truth: list[_Piece]
    wrong_sets: list[list[_Piece]]
    if rng.random() < 0.5:
        a = rng.choice([i for i in range(-9, 10) if i not in (0, 1, -1)] + [1])
        b, c = rng.randint(-20, 20), rng.randint(-20, 20)
        t = Fraction(c - b, a)
        q = f"Solve ${coef_tex(a)} {'+' if b >= 0 else '-'} {abs(b)} {rel_tex[rel]} {c}$."
        steps = (
            f"Subtract {b} from both sides: ${coef_tex(a)} {rel_tex[rel]} {c - b}$.",
            f"Divide by {a}"
            + (", flipping the inequality since it is negative." if a < 0 else "."),
        )
        eff = flip[rel] if a < 0 else rel
        closed = "=" in eff

        def ray(r: str) -> _Piece:
            return (None, False, t, "=" in r) if "<" in r else (t, "=" in r, None, False)

        truth = [ray(eff)]
        wrong_sets = [[ray(rel)] if a < 0 else [ray(flip[eff])]]
        wrong_sets.append([ray(eff.replace("=", "") if closed else eff + "=")])
        if t != 0:
            wrong_sets.append(
                [(None, False, -t, closed) if "<" in eff else (-t, closed, None, False)]
            )
    else:
        r1, r2 = sorted(rng.sample(range(-9, 10), 2))
        lo, hi = Fraction(r1), Fraction(r2)
        k = rng.choice([1, 2])
        if k == 2:
            lo, hi = lo / 2, hi / 2
        coeffs = (k * k, -k * (r1 + r2) // 1, r1 * r2)
        # (kx - r1)(kx - r2) = k^2 x^2 - k(r1 + r2) x + r1 r2
        q = f"Solve ${poly_tex(coeffs)} {rel_tex[rel]} 0$."
        steps = (
            f"The quadratic factors as $({linear_tex(-r1, f'{k}x' if k > 1 else 'x')})"
            f"({linear_tex(-r2, f'{k}x' if k > 1 else 'x')})$.",
            "A parabola opening upward is negative between its roots.",
        )
        closed = "=" in rel
        inside: list[_Piece] = [(lo, closed, hi, closed)]
        outside: list[_Piece] = [(None, False, lo, closed), (hi, closed, None, False)]
        truth = inside if "<" in rel else outside
        other = outside if "<" in rel else inside
        toggled = [
            (
                p[0],
                not p[1] if p[0] is not None else False,
                p[2],
                not p[3] if p[2] is not None else False,
            )
            for p in truth
        ]
        wrong_sets = [other, toggled]
        if lo != -hi:
            neg = sorted([-hi, -lo])
            wrong_sets.append(
                [(neg[0], closed, neg[1], closed)]
                if "<" in rel
                else [(None, False, neg[0], closed), (neg[1], closed, None, False)]
            )
    ref = _interval_tex(truth)
    correct = [ref, _interval_tex(truth, lr=True), _interval_tex(truth, style="slash")]
    if any(p[2] is None for p in truth):
        correct.append(_interval_tex(truth, plus_inf=True))
    if len(truth) == 2:
        correct.append(_interval_tex(truth[::-1]))
        correct.append(_interval_tex(truth[::-1], plus_inf=True))
    ends = [e for p in truth for e in (p[0], p[2]) if e is not None]
    if all(terminates(e) for e in ends) and any(e.denominator > 1 for e in ends):
        correct.append(_interval_tex(truth, style="decimal"))
    truth_key = sorted(truth, key=str)
    wrong = [_interval_tex(w) for w in wrong_sets if sorted(w, key=str) != truth_key]
    return Problem("interval", ref, q, steps, distinct(correct), distinct(wrong))
