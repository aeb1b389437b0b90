"""Word answers: days of the week, multiple-choice letters and yes/no."""

from __future__ import annotations

import random

import sympy

from benchmarks.math_dataset.problem import Problem, distinct

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _word_forms(word: str) -> list[str]:
    return [
        f"\\text{{{word}}}",
        word,
        word.lower(),
        f"\\text{{{word.lower()}}}",
        f"\\mathrm{{{word}}}",
    ]


def gen_text(rng: random.Random) -> Problem:
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
    return Problem("text", ref, q, steps, distinct(correct), distinct(wrong))
