"""Deterministic synthetic benchmark for the math answer checker.

``build_dataset`` yields GRPO-style groups: for each generated reference answer,
``group_size`` short chain-of-thought completions, some correct (often written in
an equivalent but different form from the reference), some wrong (near misses),
and some with no extractable final answer.  Labels are right by construction:
every final answer is rendered from a value the generator knows, and wrong
answers are checked to differ from the truth before they are used.

Run ``python benchmarks/math_dataset.py`` to print the composition.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from math import gcd, isqrt

import sympy

CATEGORIES: tuple[str, ...] = (
    "gsm8k_int",
    "fraction",
    "decimal",
    "latex_expression",
    "root",
    "set",
    "interval",
    "tuple",
    "matrix",
    "percentage",
    "text",
)

# Categories whose correct answers can be written in several symbolically different
# forms get more references than those judged by plain number/string comparison.
_CATEGORY_WEIGHTS: dict[str, int] = {
    "gsm8k_int": 1,
    "fraction": 3,
    "decimal": 2,
    "latex_expression": 3,
    "root": 3,
    "set": 3,
    "interval": 3,
    "tuple": 3,
    "matrix": 3,
    "percentage": 1,
    "text": 1,
}


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


@dataclass(frozen=True)
class _Problem:
    category: str
    reference: str
    question: str
    steps: tuple[str, ...]
    correct: tuple[str, ...]
    wrong: tuple[str, ...]


# ---------------------------------------------------------------------------
# rendering helpers
# ---------------------------------------------------------------------------


def _frac(value: Fraction, style: str = "frac") -> str:
    """Render a rational number in one of several equivalent LaTeX/plain styles."""
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    p, q = abs(value.numerator), value.denominator
    if style == "frac":
        return f"{sign}\\frac{{{p}}}{{{q}}}"
    if style == "dfrac":
        return f"{sign}\\dfrac{{{p}}}{{{q}}}"
    if style == "slash":
        return f"{sign}{p}/{q}"
    if style == "negnum":
        return f"\\frac{{{sign}{p}}}{{{q}}}"
    if style == "decimal":
        return _decimal(value)
    raise ValueError(style)


def _terminates(value: Fraction) -> bool:
    q = value.denominator
    for f in (2, 5):
        while q % f == 0:
            q //= f
    return q == 1


def _decimal(value: Fraction) -> str:
    if not _terminates(value):
        raise ValueError(f"{value} has no finite decimal expansion")
    with localcontext() as ctx:
        ctx.prec = 60
        d = (Decimal(value.numerator) / Decimal(value.denominator)).normalize()
    text = format(d, "f")
    return "0" if text == "-0" else text


def _rounded(value: Fraction, places: int) -> str:
    return f"{float(value):.{places}f}"


def _lin(a: int, var: str = "x") -> str:
    if a == 0:
        return var
    return f"{var}+{a}" if a > 0 else f"{var}-{-a}"


def _poly(coeffs: Sequence[int], var: str = "x", ascending: bool = False) -> str:
    """Render a polynomial given its coefficients, highest degree first."""
    deg = len(coeffs) - 1
    terms: list[tuple[bool, str]] = []
    for i, c in enumerate(coeffs):
        d = deg - i
        if c == 0:
            continue
        if d == 0:
            body = str(abs(c))
        else:
            mono = var if d == 1 else f"{var}^{{{d}}}"
            body = ("" if abs(c) == 1 else str(abs(c))) + mono
        terms.append((c < 0, body))
    if not terms:
        return "0"
    if ascending:
        terms.reverse()
    out = ("-" if terms[0][0] else "") + terms[0][1]
    for neg, body in terms[1:]:
        out += ("-" if neg else "+") + body
    return out


def _is_plain_number(ans: str) -> bool:
    return re.fullmatch(r"-?[\d,]+(\.\d+)?", ans) is not None


def _is_math(ans: str) -> bool:
    return any(ch in ans for ch in "\\^_{}=") or re.fullmatch(r"[A-Za-z]+", ans) is None


def _coef(a: int, var: str = "x") -> str:
    return var if a == 1 else ("-" + var if a == -1 else f"{a}{var}")


def _distinct(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


# ---------------------------------------------------------------------------
# the "trivial judge": plain string / number comparison, used only to report how
# many correct answers need more than that to be recognised
# ---------------------------------------------------------------------------

_WRAPPERS = re.compile(r"\\(?:text|mathrm|textbf|mbox|mathbf)\{([^{}]*)\}")


def _normalise(text: str) -> str:
    s = text.strip().rstrip(".")
    s = _WRAPPERS.sub(r"\1", s)
    for junk in ("\\$", "$", "\\left", "\\right", "\\!", "\\,", "\\;", "\\ ", "\\%", "%", " "):
        s = s.replace(junk, "")
    s = s.lower()
    s = re.sub(r"^(-?[\d.,]+)[a-z]+$", r"\1", s)  # a trailing unit word: "42muffins"
    m = re.fullmatch(r"\(([a-e])\)", s)
    return m.group(1) if m else s


def _as_number(text: str) -> float | None:
    s = _normalise(text).replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def trivially_equal(a: str, b: str) -> bool:
    """True when plain string normalisation or float parsing already matches."""
    if _normalise(a) == _normalise(b):
        return True
    x, y = _as_number(a), _as_number(b)
    return x is not None and x == y


# ---------------------------------------------------------------------------
# problem generators, one per category
# ---------------------------------------------------------------------------


def _gen_gsm8k(rng: random.Random) -> _Problem:
    steps: tuple[str, ...]
    kind = rng.randrange(4)
    unit = ""
    if kind == 0:
        a, b = rng.randint(3, 40), rng.randint(6, 24)
        c = rng.randint(1, a * b - 1)
        n = a * b - c
        q = (
            f"A bakery bakes {a} trays of {b} muffins each and sells {c} muffins. "
            "How many muffins are left?"
        )
        steps = (
            f"The bakery bakes ${a} \\times {b} = {a * b}$ muffins.",
            f"Then {c} muffins are sold, so we subtract {c} from {a * b}.",
        )
        wrong = [a * b + c, n + 1, n - 1, a * b]
        unit = "muffins"
    elif kind == 1:
        a, b, c = rng.randint(2, 30), rng.randint(2, 60), rng.randint(5, 400)
        n = a * b + c
        q = (
            f"Tom buys {a} notebooks at \\${b} each and a backpack for \\${c}. "
            "How many dollars does he spend?"
        )
        steps = (
            f"The notebooks cost ${a} \\times {b} = {a * b}$ dollars.",
            f"Adding the backpack: ${a * b} + {c}$.",
        )
        wrong = [a * b, a + b + c, n + b, n - 1]
        unit = "dollars"
    elif kind == 2:
        a, d = rng.randint(100, 999), rng.randint(5, 31)
        n = a * d
        q = f"A factory produces {a} widgets per day. How many widgets does it make in {d} days?"
        steps = (
            f"Each day the factory makes {a} widgets.",
            f"Over {d} days that is ${a} \\times {d}$ widgets.",
        )
        wrong = [a * (d - 1), a * d + a, a + d, n + 10]
        unit = "widgets"
    else:
        g, s = rng.randint(4, 40), rng.randint(18, 35)
        k = rng.randint(1, g * s // 3)
        n = g * s - k
        q = (
            f"A school has {g} classes of {s} students. {k} students are absent today. "
            "How many students are present?"
        )
        steps = (
            f"In total there are ${g} \\times {s} = {g * s}$ students.",
            f"Removing the {k} absent students leaves ${g * s} - {k}$.",
        )
        wrong = [g * s + k, g * s, n + 1, n - 1]
        unit = "students"
    ref = str(n)
    correct = [ref, ref, f"{n} \\text{{ {unit}}}"]
    if n >= 1000:
        correct.append(f"{n:,}")
    if unit == "dollars":
        correct += [f"\\${n}", f"\\${n}.00"]
    wrong_s = [str(w) for w in wrong if w != n and w > 0]
    return _Problem("gsm8k_int", ref, q, steps, _distinct(correct), _distinct(wrong_s))


def _gen_fraction(rng: random.Random) -> _Problem:
    steps: tuple[str, ...]
    while True:
        b, d = rng.randint(2, 12), rng.randint(2, 12)
        a, c = rng.randint(1, 3 * b), rng.randint(1, 3 * d)
        op = rng.choice("+-")
        val = Fraction(a, b) + Fraction(c, d) if op == "+" else Fraction(a, b) - Fraction(c, d)
        if val.denominator > 1 and val.numerator != 0:
            break
    lcm = b * d // gcd(b, d)
    q = f"Compute $\\frac{{{a}}}{{{b}}} {op} \\frac{{{c}}}{{{d}}}$ in lowest terms."
    steps = (
        f"The common denominator of {b} and {d} is {lcm}.",
        f"So we get $\\frac{{{a * lcm // b}}}{{{lcm}}} {op} \\frac{{{c * lcm // d}}}{{{lcm}}}$.",
    )
    ref = _frac(val)
    k = rng.randint(2, 4)
    unreduced = ("-" if val < 0 else "") + (
        f"\\frac{{{abs(val.numerator) * k}}}{{{val.denominator * k}}}"
    )
    correct = [ref, _frac(val, "dfrac"), _frac(val, "slash"), unreduced]
    if val < 0:
        correct.append(_frac(val, "negnum"))
    if _terminates(val):
        correct.append(_frac(val, "decimal"))
    naive = Fraction(a + c, b + d) if op == "+" else Fraction(a - c, abs(b - d) or 1)
    candidates = [
        1 / val,
        -val,
        val + Fraction(1, val.denominator),
        naive,
    ]
    wrong = [_frac(w) for w in candidates if w != val]
    if not _terminates(val):
        wrong.append(_rounded(val, 2))
    return _Problem("fraction", ref, q, steps, _distinct(correct), _distinct(wrong))


def _gen_decimal(rng: random.Random) -> _Problem:
    steps: tuple[str, ...]
    if rng.random() < 0.5:
        q_den = rng.choice([4, 8, 16, 20, 25, 40, 50, 80])
        p = rng.randint(1, 3 * q_den)
        val = Fraction(p, q_den)
        while val.denominator == 1:
            p += 1
            val = Fraction(p, q_den)
        q = f"Write $\\frac{{{p}}}{{{q_den}}}$ as a decimal."
        steps = (
            f"We divide {p} by {q_den}.",
            "Long division terminates since the divisor only has factors 2 and 5.",
        )
    else:
        x, y = Fraction(rng.randint(11, 99), 10), Fraction(rng.randint(11, 99), 10)
        val = x * y
        q = f"Compute ${_decimal(x)} \\times {_decimal(y)}$."
        steps = (
            f"Without decimal points, ${int(x * 10)} \\times {int(y * 10)} = {int(val * 100)}$.",
            "There are two decimal places in total, so we shift the point two places left.",
        )
    ref = _decimal(val)
    correct = [ref, _frac(val), _frac(val, "slash")]
    correct.append(ref + "0" if "." in ref else ref + ".0")
    if 0 < val < 1:
        correct.append(ref[1:])
    unit = Fraction(1, 10 ** (len(ref.split(".")[1]) if "." in ref else 0))
    candidates = [val * 10, val / 10, val + unit, val - unit, -val]
    wrong = [_decimal(w) for w in candidates if w != val]
    return _Problem("decimal", ref, q, steps, _distinct(correct), _distinct(wrong))


def _gen_expression(rng: random.Random) -> _Problem:
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
        ref = _poly(truth)
        factored = [f"({_lin(a)})({_lin(b)})", f"({_lin(b)})({_lin(a)})"]
        if a == b:
            factored = [f"({_lin(a)})^{{2}}", f"({_lin(a)})({_lin(a)})"]
        correct = [ref, _poly(truth, ascending=True), *factored]
        cands: list[tuple[int, ...]] = [
            (1, 0, a * b),
            (1, a + b, a + b),
            (1, a * b, a + b),
            (1, -(a + b), a * b),
        ]
    elif kind == 1:
        a = rng.choice(nz)
        truth = (3, 6 * a, 3 * a * a)
        q = f"Differentiate $f(x) = ({_lin(a)})^{{3}}$."
        steps = ("By the chain rule, the derivative of $u^3$ is $3u^2 u'$.", "Here $u' = 1$.")
        ref = f"3({_lin(a)})^{{2}}"
        correct = [
            ref,
            _poly(truth),
            f"3({_poly((1, 2 * a, a * a))})",
            _poly(truth, ascending=True),
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
        q = f"Let $f(x) = x^2{c:+d}$ and $g(x) = {_lin(a)}$. Find $f(g(x))$."
        steps = (f"Substitute $g(x) = {_lin(a)}$ into $f$.", "Then expand the square.")
        ref = _poly(truth)
        correct = [ref, f"({_lin(a)})^{{2}}{c:+d}", _poly(truth, ascending=True)]
        if a * a + c != 0:
            correct.append(f"({_lin(a)})^2{c:+d}")
        cands = [(1, 0, a * a + c), (1, 0, a + c), (1, a, a * a + c), (1, 2 * a, a + c)]
    wrong = [_poly(w) for w in cands if w != truth]
    return _Problem("latex_expression", ref, q, steps, _distinct(correct), _distinct(wrong))


def _sqrt_parts(n: int) -> tuple[int, int]:
    """n = a^2 * b with b squarefree."""
    a = 1
    for p, e in sympy.factorint(n).items():
        a *= int(p) ** (int(e) // 2)
    return a, n // (a * a)


def _gen_root(rng: random.Random) -> _Problem:
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
    return _Problem("root", ref, q, steps, _distinct(correct), _distinct(wrong))


def _set_tex(items: Sequence[int], left_right: bool = False) -> str:
    body = ", ".join(str(i) for i in items)
    return f"\\left\\{{{body}\\right\\}}" if left_right else f"\\{{{body}\\}}"


def _gen_set(rng: random.Random) -> _Problem:
    steps: tuple[str, ...]
    if rng.random() < 0.6:
        roots = sorted(rng.sample([i for i in range(-9, 10) if i != 0], 3))
        r1, r2, r3 = roots
        coeffs = (1, -(r1 + r2 + r3), r1 * r2 + r1 * r3 + r2 * r3, -r1 * r2 * r3)
        q = f"Find the set of all real solutions of ${_poly(coeffs)} = 0$."
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
    return _Problem("set", ref, q, steps, _distinct(correct), _distinct(wrong))


# An interval piece: (lo, lo_closed, hi, hi_closed); None is an infinite end.
_Piece = tuple[Fraction | None, bool, Fraction | None, bool]


def _end(v: Fraction | None, lo: bool, style: str, plus_inf: bool) -> str:
    if v is None:
        return "-\\infty" if lo else ("+\\infty" if plus_inf else "\\infty")
    return _frac(v, style)


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


def _gen_interval(rng: random.Random) -> _Problem:
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
        q = f"Solve ${_coef(a)} {'+' if b >= 0 else '-'} {abs(b)} {rel_tex[rel]} {c}$."
        steps = (
            f"Subtract {b} from both sides: ${_coef(a)} {rel_tex[rel]} {c - b}$.",
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
        q = f"Solve ${_poly(coeffs)} {rel_tex[rel]} 0$."
        steps = (
            f"The quadratic factors as $({_lin(-r1, f'{k}x' if k > 1 else 'x')})"
            f"({_lin(-r2, f'{k}x' if k > 1 else 'x')})$.",
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
    if all(_terminates(e) for e in ends) and any(e.denominator > 1 for e in ends):
        correct.append(_interval_tex(truth, style="decimal"))
    truth_key = sorted(truth, key=str)
    wrong = [_interval_tex(w) for w in wrong_sets if sorted(w, key=str) != truth_key]
    return _Problem("interval", ref, q, steps, _distinct(correct), _distinct(wrong))


def _tuple_tex(vals: Sequence[Fraction], style: str = "frac", lr: bool = False) -> str:
    body = ", ".join(_frac(v, style) for v in vals)
    return f"\\left({body}\\right)" if lr else f"({body})"


def _gen_tuple(rng: random.Random) -> _Problem:
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
        eq1 = f"{_coef(a1)} {'+' if b1 > 0 else '-'} {_coef(abs(b1), 'y')} = {c1}"
        eq2 = f"{_coef(a2)} {'+' if b2 > 0 else '-'} {_coef(abs(b2), 'y')} = {c2}"
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
    if all(_terminates(v) for v in truth) and any(v.denominator > 1 for v in truth):
        correct.append(_tuple_tex(truth, "decimal"))
    if x < 0 or y < 0:
        correct.append(_tuple_tex(truth, "negnum"))
    cands = [[y, x], [x, -y], [-x, y], [x + 1, y], [x, y - 1]]
    wrong = [_tuple_tex(w) for w in cands if w != truth]
    return _Problem("tuple", ref, q, steps, _distinct(correct), _distinct(wrong))


_Mat = tuple[tuple[Fraction, ...], ...]


def _mat_tex(m: _Mat, env: str = "pmatrix", style: str = "frac", spaced: bool = False) -> str:
    amp, nl = (" & ", " \\\\ ") if spaced else ("&", "\\\\")
    body = nl.join(amp.join(_frac(v, style) for v in row) for row in m)
    if env == "array":
        cols = "c" * len(m[0])
        return f"\\left(\\begin{{array}}{{{cols}}}{body}\\end{{array}}\\right)"
    return f"\\begin{{{env}}}{body}\\end{{{env}}}"


def _gen_matrix(rng: random.Random) -> _Problem:
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
    return _Problem("matrix", ref, q, steps, _distinct(correct), _distinct(wrong))


def _gen_percentage(rng: random.Random) -> _Problem:
    steps: tuple[str, ...]
    if rng.random() < 0.5:
        n = rng.choice([20, 40, 50, 80, 200, 250, 400, 500])
        k = rng.randint(1, n - 1)
        p = Fraction(100 * k, n)
        q = f"What percent of {n} is {k}?"
        steps = (f"We compute $\\frac{{{k}}}{{{n}}} \\times 100$.",)
        wrong_vals = [100 - p, p + 10, 2 * p, Fraction(n, k) if k else p]
    else:
        old = rng.choice([20, 40, 50, 80, 100, 200, 400])
        p = Fraction(rng.randint(1, 20) * 5)
        new = old + old * p / 100
        q = f"A price rises from \\${old} to \\${_decimal(new)}. By what percent did it increase?"
        steps = (
            f"The increase is ${_decimal(new)} - {old} = {_decimal(new - old)}$.",
            f"Divide by the original price {old}.",
        )
        wrong_vals = [100 * (new - old) / new, p + 5, 100 + p, p - 5]
    ps = _decimal(p)
    ref = f"{ps}\\%"
    correct = [ref, f"{ps}%", ps, f"{ps} \\%", f"{ps}\\text{{ percent}}"]
    wrong = []
    for w in wrong_vals:
        if w == p or w <= 0 or w * 100 == p:
            continue
        ws = _decimal(w) if _terminates(w) else _rounded(w, 2)
        wrong.append(f"{ws}\\%")
    return _Problem("percentage", ref, q, steps, _distinct(correct), _distinct(wrong))


_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _word_forms(word: str) -> list[str]:
    return [
        f"\\text{{{word}}}",
        word,
        word.lower(),
        f"\\text{{{word.lower()}}}",
        f"\\mathrm{{{word}}}",
    ]


def _gen_text(rng: random.Random) -> _Problem:
    steps: tuple[str, ...]
    kind = rng.randrange(3)
    if kind == 0:
        start = rng.randrange(7)
        n = rng.randint(8, 400)
        ans = _DAYS[(start + n) % 7]
        q = f"Today is {_DAYS[start]}. What day of the week will it be in {n} days?"
        steps = (
            f"Days repeat every 7, and ${n} = 7 \\cdot {n // 7} + {n % 7}$.",
            f"So we move {n % 7} days forward from {_DAYS[start]}.",
        )
        correct = _word_forms(ans)
        wrong = [f"\\text{{{_DAYS[(start + n + d) % 7]}}}" for d in (1, -1, 2)]
        ref = correct[0]
    elif kind == 1:
        vals = rng.sample(range(10, 99), 5)
        letters = "ABCDE"
        best = letters[vals.index(max(vals))]
        opts = ", ".join(f"({letters[i]}) $\\frac{{{v}}}{{7}}$" for i, v in enumerate(vals))
        q = f"Which of the following is largest? {opts}"
        steps = ("All options share the denominator 7.", "So we compare the numerators.")
        ref = f"\\text{{({best})}}"
        correct = [ref, best, f"({best})", f"\\textbf{{({best})}}", f"\\text{{{best}}}"]
        wrong = [f"\\text{{({x})}}" for x in letters if x != best][:3]
    else:
        n = rng.randint(20, 500)
        ans = "Yes" if sympy.isprime(n) else "No"
        q = f"Is {n} a prime number? Answer Yes or No."
        steps = (f"We check divisibility by primes up to $\\sqrt{{{n}}}$.",)
        correct = _word_forms(ans)
        other = "No" if ans == "Yes" else "Yes"
        wrong = [f"\\text{{{other}}}", other.lower()]
        ref = correct[0]
    return _Problem("text", ref, q, steps, _distinct(correct), _distinct(wrong))


_GENERATORS: dict[str, Callable[[random.Random], _Problem]] = {
    "gsm8k_int": _gen_gsm8k,
    "fraction": _gen_fraction,
    "decimal": _gen_decimal,
    "latex_expression": _gen_expression,
    "root": _gen_root,
    "set": _gen_set,
    "interval": _gen_interval,
    "tuple": _gen_tuple,
    "matrix": _gen_matrix,
    "percentage": _gen_percentage,
    "text": _gen_text,
}

# ---------------------------------------------------------------------------
# completion rendering
# ---------------------------------------------------------------------------

_OPENERS = (
    "Let's solve this step by step.",
    "We work through the problem carefully.",
    "First, let's understand what is being asked.",
    "Let me break this down.",
    "Okay, let's think.",
    "",
    "We need to be careful with the arithmetic here.",
    "Here is my reasoning.",
)

_BRIDGES = (
    "Carrying this out gives {a}.",
    "This simplifies to {a}.",
    "Putting it together, we obtain {a}.",
    "After simplifying, the result is {a}.",
    "",
)

_TRUNCATIONS = (
    "Next, we need to",
    "Hmm, wait. Let me recompute the previous step because",
    "Now substituting back, we get",
    "Let me double-check this by",
)


def _display(ans: str) -> str:
    return f"${ans}$" if _is_math(ans) and not _is_plain_number(ans) else ans


def _body(rng: random.Random, prob: _Problem) -> str:
    lines = [rng.choice(_OPENERS)] if rng.random() < 0.8 else []
    lines += list(prob.steps)
    return "\n".join(line for line in lines if line)


def _render(rng: random.Random, prob: _Problem, ans: str, first_wrong: str | None) -> str:
    body = _body(rng, prob)
    bridge = rng.choice(_BRIDGES)
    if bridge:
        body += "\n" + bridge.format(a=_display(ans))
    fmts = ["boxed", "boxed", "answer_is", "tag"]
    if _is_plain_number(ans):
        fmts.append("hash")
        if prob.category == "gsm8k_int":
            fmts += ["hash", "hash"]
    fmt = rng.choice(fmts)
    if fmt == "boxed":
        if first_wrong is not None:
            body += (
                f"\nSo the answer would be $\\boxed{{{first_wrong}}}$.\n"
                "Wait, let me re-check that last step. I made an arithmetic slip; redoing it:"
            )
        closer = rng.choice(
            (
                "Therefore, the answer is $\\boxed{{{a}}}$.",
                "So the final answer is $\\boxed{{{a}}}$.",
                "\\[\\boxed{{{a}}}\\]",
                "**Final Answer**\n\\[\n\\boxed{{{a}}}\n\\]",
                "Thus we get \\boxed{{{a}}}.",
            )
        )
        return body + "\n" + closer.format(a=ans)
    if fmt == "answer_is":
        closer = rng.choice(
            (
                "The answer is {d}.",
                "The final answer is {d}.",
                "Final Answer: The final answer is {d}. I hope it is correct.",
            )
        )
        return body + "\n" + closer.format(d=_display(ans))
    if fmt == "hash":
        return body + f"\n#### {ans}"
    if rng.random() < 0.5:
        return f"<think>\n{body}\n</think>\n<answer>{ans}</answer>"
    return f"<think>\n{body}\n</think>\n<answer>\n{ans}\n</answer>"


def _render_no_answer(rng: random.Random, prob: _Problem) -> str:
    kind = rng.randrange(3)
    first = rng.choice(_OPENERS)
    steps = list(prob.steps[: max(1, len(prob.steps) - 1)])
    text = "\n".join(x for x in [first, *steps] if x)
    if kind == 0:
        return text + "\n" + rng.choice(_TRUNCATIONS)
    if kind == 1:
        ans = prob.correct[0]
        cut = ans[: max(1, len(ans) // 2)]
        return "\n".join([*prob.steps, f"Therefore, $\\boxed{{{cut}"])
    return "<think>\n" + text + "\n" + rng.choice(_TRUNCATIONS)


# ---------------------------------------------------------------------------
# dataset assembly
# ---------------------------------------------------------------------------


def _group_sizes(rng: random.Random, group_size: int) -> tuple[int, int, int]:
    n_none = round(group_size * rng.choice((0.0, 0.125, 0.125, 0.125, 0.25)))
    n_wrong = round(group_size * rng.choice((0.125, 0.25, 0.25, 0.25, 0.375)))
    n_none = min(n_none, max(group_size - 1, 0))
    n_wrong = min(n_wrong, max(group_size - n_none - 1, 0))
    return group_size - n_none - n_wrong, n_wrong, n_none


def _group(rng: random.Random, prob: _Problem, group_size: int) -> list[AnnotatedPair]:
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
                text = _render_no_answer(rng, prob)
            else:
                slip = None
                if label and wrong_chosen and rng.random() < 0.05:
                    slip = wrong_chosen[0]
                text = _render(rng, prob, ans, slip)
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
    for round_ in range(max(_CATEGORY_WEIGHTS.values())):
        cycle += [c for c in CATEGORIES if _CATEGORY_WEIGHTS[c] > round_]
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
        prob = _GENERATORS[category](rng)
        for _ in range(50):
            if (prob.reference, prob.question) not in used:
                break
            prob = _GENERATORS[category](rng)
        used.add((prob.reference, prob.question))
        out.extend(_group(rng, prob, group_size))
    return out


def build_dataset(n_references: int = 400, group_size: int = 8, seed: int = 0) -> list[Pair]:
    """GRPO-style groups of ``group_size`` labelled completions per reference."""
    return [ap.pair for ap in build_annotated_dataset(n_references, group_size, seed)]


def main() -> None:
    data = build_annotated_dataset()
    pairs = [ap.pair for ap in data]
    distinct = len({(p.reference, p.completion) for p in pairs})
    print(f"pairs: {len(pairs)}  distinct (reference, completion): {distinct}")
    counts = Counter((p.category, p.label) for p in pairs)
    print(f"{'category':18} {'total':>6} {'True':>6} {'False':>6} {'None':>6} {'symbolic':>9}")
    sym = Counter(ap.pair.category for ap in data if ap.needs_symbolic)
    for cat in CATEGORIES:
        t, f, n = counts[(cat, True)], counts[(cat, False)], counts[(cat, None)]
        print(f"{cat:18} {t + f + n:6d} {t:6d} {f:6d} {n:6d} {sym[cat]:9d}")
    labels = Counter(p.label for p in pairs)
    print(f"labels: True={labels[True]} False={labels[False]} None={labels[None]}")
    n_sym = sum(ap.needs_symbolic for ap in data)
    print(
        f"needs more than string/number comparison: {n_sym} "
        f"({100 * n_sym / max(len(data), 1):.1f}% of pairs)"
    )


if __name__ == "__main__":
    main()
