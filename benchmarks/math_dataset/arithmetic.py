"""Number answers: GSM8K-style word problems, fractions, decimals and percentages."""

from __future__ import annotations

import random
from fractions import Fraction
from math import gcd

from benchmarks.math_dataset.notation import decimal_tex, frac_tex, terminates
from benchmarks.math_dataset.problem import Problem, distinct


def _rounded(value: Fraction, places: int) -> str:
    return f"{float(value):.{places}f}"


def gen_gsm8k(rng: random.Random) -> Problem:
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
    return Problem("gsm8k_int", ref, q, steps, distinct(correct), distinct(wrong_s))


def gen_fraction(rng: random.Random) -> Problem:
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
    ref = frac_tex(val)
    k = rng.randint(2, 4)
    unreduced = ("-" if val < 0 else "") + (
        f"\\frac{{{abs(val.numerator) * k}}}{{{val.denominator * k}}}"
    )
    correct = [ref, frac_tex(val, "dfrac"), frac_tex(val, "slash"), unreduced]
    if val < 0:
        correct.append(frac_tex(val, "negnum"))
    if terminates(val):
        correct.append(frac_tex(val, "decimal"))
    naive = Fraction(a + c, b + d) if op == "+" else Fraction(a - c, abs(b - d) or 1)
    candidates = [
        1 / val,
        -val,
        val + Fraction(1, val.denominator),
        naive,
    ]
    wrong = [frac_tex(w) for w in candidates if w != val]
    if not terminates(val):
        wrong.append(_rounded(val, 2))
    return Problem("fraction", ref, q, steps, distinct(correct), distinct(wrong))


def gen_decimal(rng: random.Random) -> Problem:
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
        q = f"Compute ${decimal_tex(x)} \\times {decimal_tex(y)}$."
        steps = (
            f"Without decimal points, ${int(x * 10)} \\times {int(y * 10)} = {int(val * 100)}$.",
            "There are two decimal places in total, so we shift the point two places left.",
        )
    ref = decimal_tex(val)
    correct = [ref, frac_tex(val), frac_tex(val, "slash")]
    correct.append(ref + "0" if "." in ref else ref + ".0")
    if 0 < val < 1:
        correct.append(ref[1:])
    unit = Fraction(1, 10 ** (len(ref.split(".")[1]) if "." in ref else 0))
    candidates = [val * 10, val / 10, val + unit, val - unit, -val]
    wrong = [decimal_tex(w) for w in candidates if w != val]
    return Problem("decimal", ref, q, steps, distinct(correct), distinct(wrong))


def gen_percentage(rng: random.Random) -> Problem:
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
        q = (
            f"A price rises from \\${old} to \\${decimal_tex(new)}. "
            "By what percent did it increase?"
        )
        steps = (
            f"The increase is ${decimal_tex(new)} - {old} = {decimal_tex(new - old)}$.",
            f"Divide by the original price {old}.",
        )
        wrong_vals = [100 * (new - old) / new, p + 5, 100 + p, p - 5]
    ps = decimal_tex(p)
    ref = f"{ps}\\%"
    correct = [ref, f"{ps}%", ps, f"{ps} \\%", f"{ps}\\text{{ percent}}"]
    wrong = []
    for w in wrong_vals:
        if w == p or w <= 0 or w * 100 == p:
            continue
        ws = decimal_tex(w) if terminates(w) else _rounded(w, 2)
        wrong.append(f"{ws}\\%")
    return Problem("percentage", ref, q, steps, distinct(correct), distinct(wrong))
