"""Cheap checks that refuse answers which would make symbolic comparison hang or explode.

sympy evaluates ``2^{2^{2^{100}}}`` or ``100000!`` eagerly and cannot be interrupted while
it is inside big-integer arithmetic, so such inputs are refused before they reach it. The
worker pool's hard deadline is the second line of defence for whatever slips through.
"""

from __future__ import annotations

import math
import re

MAX_SYMBOLIC_CHARS = 2000
MAX_NESTING = 24
MAX_EXPONENT = 10_000
MAX_FACTORIAL = 2_000
MAX_NUMBER_DIGITS = 400
MAX_OPERATORS = 400

_EXPONENT = re.compile(r"(?:\^|\*\*)\s*\{?\s*\(?\s*([+-]?\d+(?:\.\d+)?)")
_SCI_EXPONENT = re.compile(r"\d[eE]([+-]?\d+)")
_FACTORIAL = re.compile(r"(\d+)\s*\}?\s*\)?\s*!|factorial\s*[({]\s*(\d+)|\\Gamma\s*[({]\s*(\d+)")
_DOUBLE_FACTORIAL = re.compile(r"!\s*\)?\s*!")
_COMPUTED_FACTORIAL = re.compile(r"[({][^(){}]*[\^*][^(){}]*[)}]\s*!")
_POWER = r"\s*(?:\^|\*\*)\s*\{?\s*\(?\s*"
_NUMERIC_TOWER = re.compile(rf"\d+(?:\.\d+)?(?:{_POWER}\d+(?:\.\d+)?){{2,}}")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_NUMBER_DIGITS + 1},}}")
_BIG_RANGE = re.compile(r"\\(?:sum|prod)\s*_\s*\{[^}]*\}\s*\^\s*\{?\s*(\d+)")
_ITERATED = re.compile(r"\\(?:sum|prod|int|lim)\b")


def _max_nesting(text: str) -> int:
    depth = deepest = 0
    for ch in text:
        if ch in "{([":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "})]":
            depth = max(0, depth - 1)
    return deepest


def _tower_reason(answer: str) -> str | None:
    """Reject numeric power towers whose exponent alone is beyond ``MAX_EXPONENT``.

    Symbolic towers (``e^{x^2}``) are harmless: sympy keeps them unevaluated.
    """
    for match in _NUMERIC_TOWER.finditer(answer):
        numbers = [float(n) for n in _NUMBER.findall(match.group(0))]
        exponent = numbers[-1]
        for base in reversed(numbers[1:-1]):
            if base > 1 and exponent * math.log10(base) > math.log10(MAX_EXPONENT):
                return "power tower with an exponent beyond " + str(MAX_EXPONENT)
            exponent = base**exponent
        if exponent > MAX_EXPONENT:
            return "power tower with an exponent beyond " + str(MAX_EXPONENT)
    return None


def hostile_reason(answer: str) -> str | None:
    """Why ``answer`` is unsafe to give to a symbolic engine, or None when it is fine."""
    if len(answer) > MAX_SYMBOLIC_CHARS:
        return f"answer longer than {MAX_SYMBOLIC_CHARS} characters"
    if _max_nesting(answer) > MAX_NESTING:
        return f"brackets nested deeper than {MAX_NESTING}"
    if _LONG_NUMBER.search(answer):
        return f"a number with more than {MAX_NUMBER_DIGITS} digits"
    for match in _EXPONENT.finditer(answer):
        if abs(float(match.group(1))) > MAX_EXPONENT:
            return f"exponent {match.group(1)} exceeds {MAX_EXPONENT}"
    for match in _SCI_EXPONENT.finditer(answer):
        if abs(int(match.group(1))) > MAX_EXPONENT:
            return f"exponent {match.group(1)} exceeds {MAX_EXPONENT}"
    tower = _tower_reason(answer)
    if tower is not None:
        return tower
    for match in _FACTORIAL.finditer(answer):
        value = next(group for group in match.groups() if group is not None)
        if int(value) > MAX_FACTORIAL:
            return f"factorial of {value} exceeds {MAX_FACTORIAL}"
    if _DOUBLE_FACTORIAL.search(answer):
        return "iterated factorial"
    if _COMPUTED_FACTORIAL.search(answer):
        return "factorial of a computed power or product"
    for match in _BIG_RANGE.finditer(answer):
        if int(match.group(1)) > MAX_EXPONENT:
            return f"sum/product over {match.group(1)} terms"
    operators = sum(answer.count(op) for op in "+-*/^")
    if operators > MAX_OPERATORS:
        return f"more than {MAX_OPERATORS} operators"
    if len(_ITERATED.findall(answer)) > 4:
        return "too many sums, products, integrals or limits"
    return None
