"""Compare two expressions by their values, without the symbolic engine.

Most expressions that reach sympy are short: ``\\frac{n(n+1)}{2}`` against
``(n^2+n)/2``, ``2x\\cos(x^2)`` against ``\\cos(x^2) \\cdot 2x``, ``8`` against ``2^3``.
The expression reader (``expression_reader.read_expression``) reads such an expression
(LaTeX or plain text, already normalised) into an exact sympy expression, and ``probe``
evaluates both sides' expressions to 50 digits (mpmath, node by node) with the same random
values for their unknowns:

* no unknowns: different when the values differ beyond 20 digits; equal when they agree
  to 90 digits and still agree to 990 evaluated again to 1,000 digits (``1 - 2^{-300}``
  agrees with ``1`` to 90 digits, not to 990: the symbolic engine compares such exact
  values exactly);
* unknowns (the same names written on both sides): different when the values differ at a
  positive point, equal when they agree at every point, positive and negative (at the
  first to 1,000 digits, as without unknowns); values that agree only where the unknowns
  are positive (``\\sqrt{x^2}`` against ``x``) are left to sympy.

``rounds_to`` judges a decimal against an expression without unknowns by the symbolic
engine's rule for numbers (equal, or the value rounded to the decimal's own places), and
leaves to that engine what its 50-digit error could tip either way.

Two different analytic functions agree only on a set of measure zero, so random points
tell them apart. What the reader does not read (its module says what), a value undefined
at a point, and an exponent past 1,000 at a point, leave the pair to the symbolic engine.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import mpmath
import sympy

from services.mathcheck.expression_reader import (
    MAX_EXPONENT,
    MAX_FACTORIAL,
    Expression,
    Unreadable,
    read_expression,
)
from services.mathcheck.written_numbers import approximates

_DIGITS = 50
# Equal: apart by less than the error of evaluating at twice the digits, and again at
# 1,000 digits (a difference of 2^{-300} is below the first error, not the second).
_SAME = mpmath.mpf(10) ** -90
_EXACT_DIGITS = 1000
_EXACT_SAME = mpmath.mpf(10) ** -990
_APART = mpmath.mpf(10) ** -20
_POINTS = 4

Point = dict[str, mpmath.mpc]

# The functions the reader builds (and sympy's own simplifications of them), by their value.
_FUNCTIONS: dict[type, Callable[[Any], Any]] = {
    sympy.sin: mpmath.sin,
    sympy.cos: mpmath.cos,
    sympy.tan: mpmath.tan,
    sympy.sec: mpmath.sec,
    sympy.csc: mpmath.csc,
    sympy.cot: mpmath.cot,
    sympy.log: mpmath.log,
    sympy.Abs: abs,
    # sympy writes a trigonometric function of an imaginary number with these.
    sympy.sinh: mpmath.sinh,
    sympy.cosh: mpmath.cosh,
    sympy.tanh: mpmath.tanh,
    sympy.coth: mpmath.coth,
    sympy.sech: mpmath.sech,
    sympy.csch: mpmath.csch,
}


# A value: a function of the unknowns' values.
Value = Callable[[Point], Any]


@functools.lru_cache(maxsize=8192)
def _compiled(expr: Any) -> Value:
    """The sympy expression ``expr`` as a function of the unknowns' values, evaluated at
    the working precision; raises ``Unreadable`` for a node it does not evaluate. At a
    point, the function raises ``Unreadable`` for an exponent past 1,000 or a factorial of
    other than a whole number up to 500."""
    if expr.is_Symbol:
        name = expr.name
        return lambda point: point[name]
    if expr.is_Integer:
        # Made at the precision of each evaluation, so that no digit of a long one is lost.
        whole = int(expr)
        return lambda _point: mpmath.mpf(whole)
    if expr.is_Rational:
        numerator, denominator = int(expr.p), int(expr.q)
        return lambda _point: mpmath.fdiv(numerator, denominator)
    constant = _CONSTANTS.get(expr)
    if constant is not None:
        return lambda _point: +constant
    if expr.is_Add or expr.is_Mul:
        return _folded([_compiled(arg) for arg in expr.args], expr.is_Add)
    if expr.is_Pow:
        return _power(_compiled(expr.base), expr.exp)
    if isinstance(expr, sympy.exp):
        exponent = _bounded(_compiled(expr.args[0]))
        return lambda point: mpmath.exp(exponent(point))
    function = _FUNCTIONS.get(type(expr))
    if function is not None and len(expr.args) == 1:
        argument = _compiled(expr.args[0])
        return lambda point: function(argument(point))
    if isinstance(expr, sympy.factorial):
        return _factorial(_compiled(expr.args[0]))
    if isinstance(expr, sympy.binomial):
        return _binomial(_compiled(expr.args[0]), _compiled(expr.args[1]))
    raise Unreadable(type(expr).__name__)


_CONSTANTS: dict[Any, Any] = {
    sympy.pi: mpmath.pi,
    sympy.E: mpmath.e,
    sympy.I: mpmath.mpc(0, 1),
}


def _folded(parts: list[Value], adding: bool) -> Value:
    operation = mpmath.fadd if adding else mpmath.fmul
    first, rest = parts[0], parts[1:]

    def value(point: Point) -> Any:
        total = first(point)
        for part in rest:
            total = operation(total, part(point))
        return total

    return value


def _bounded(exponent: Value) -> Value:
    def value(point: Point) -> Any:
        power = exponent(point)
        if abs(power) > MAX_EXPONENT:
            raise Unreadable("huge exponent")
        return power

    return value


def _power(base: Value, exponent: Any) -> Value:
    if exponent.is_Integer:
        whole = int(exponent)
        if abs(whole) > MAX_EXPONENT:
            raise Unreadable("huge exponent")
        return lambda point: mpmath.power(base(point), whole)
    if exponent == sympy.S.Half:
        return lambda point: mpmath.sqrt(base(point))
    power = _bounded(_compiled(exponent))
    return lambda point: mpmath.power(base(point), power(point))


def _factorial(argument: Value) -> Value:
    def value(point: Point) -> Any:
        whole = _whole(argument(point))
        if not 0 <= whole <= MAX_FACTORIAL:
            raise Unreadable("factorial")
        return mpmath.mpf(math.factorial(whole))

    return value


def _binomial(top: Value, bottom: Value) -> Value:
    def value(point: Point) -> Any:
        n, k = _whole(top(point)), _whole(bottom(point))
        if not 0 <= n <= MAX_FACTORIAL:
            raise Unreadable("binomial")
        return mpmath.mpf(math.comb(n, k) if k >= 0 else 0)

    return value


def _whole(value: mpmath.mpc) -> int:
    if mpmath.im(value) != 0 or mpmath.re(value) != mpmath.nint(mpmath.re(value)):
        raise Unreadable("not a whole number")
    return int(mpmath.nint(mpmath.re(value)))


def _evaluated(expression: Expression, point: dict[str, float], digits: int) -> mpmath.mpc | None:
    try:
        with mpmath.workdps(digits):
            values = {name: mpmath.mpc(x) for name, x in point.items()}
            return _checked(_compiled(expression.value)(values))
    except (Unreadable, ZeroDivisionError, ValueError, OverflowError, RecursionError):
        return None


def _checked(value: mpmath.mpc) -> mpmath.mpc | None:
    value = mpmath.mpmathify(value)
    return value if mpmath.isfinite(value) else None


def _apart(
    left: Expression,
    right: Expression,
    point: dict[str, float],
    renamed: Mapping[str, str],
    exact: bool,
) -> mpmath.mpf | None:
    """How far apart the two values are at ``point``, relative to the larger (at least 1);
    a distance below the working precision's error is measured again at twice the digits,
    so that ``2^{200}`` and ``2^{200}+1`` stay apart, and (``exact``) one below that error
    again at 1,000 digits, so that ``1`` and ``1 - 2^{-300}`` do. None where either is
    undefined."""
    apart: mpmath.mpf | None = None
    # The right side's unknowns take the values of the names they are renamed to.
    right_point = {name: point[renamed.get(name, name)] for name in right.unknowns}
    for digits in (_DIGITS, 2 * _DIGITS, _EXACT_DIGITS) if exact else (_DIGITS, 2 * _DIGITS):
        a, b = _evaluated(left, point, digits), _evaluated(right, right_point, digits)
        if a is None or b is None:
            return None
        with mpmath.workdps(digits):
            apart = abs(a - b) / max(mpmath.mpf(1), abs(a), abs(b))
        if apart > (_APART if digits == _DIGITS else _SAME):
            return apart
    return apart


def probe(
    reference: str,
    answer: str,
    seed: int | None = None,
    renamed: Mapping[str, str] | None = None,
    letters_multiply: bool = False,
) -> bool | None:
    """Whether the two expressions are equal by their values; None when undecided.
    ``renamed`` maps unknowns of the answer to the reference's names they stand for (a
    function's argument: ``3t+1`` against ``3s+1`` with ``{"t": "s"}``); with
    ``letters_multiply`` both are formulas of functions (``cx`` is c·x)."""
    renamed = renamed or {}
    left = read_expression(reference, letters_multiply)
    right = read_expression(answer, letters_multiply)
    if left is None or right is None:
        return None
    if left.unknowns != {renamed.get(name, name) for name in right.unknowns}:
        return None
    chooser = random.Random(seed)
    names = sorted(left.unknowns)
    for sign in (1, -1) if names else (1,):
        for index in range(_POINTS if names else 1):
            point = {name: sign * chooser.uniform(0.3, 2.7) for name in names}
            # A tiny difference shows at any point: the first is measured to 1,000 digits.
            exact = sign > 0 and index == 0
            apart = _apart(left, right, point, renamed, exact)
            if apart is None:
                return None
            if apart > _APART:
                # Apart where the unknowns are positive: different; apart only where they
                # are negative: a branch of a root or a power, for sympy to judge.
                return False if sign > 0 else None
            if apart > (_EXACT_SAME if exact else _SAME):
                return None
    return True


# A decimal against a constant expression: the expression's value must be known to 45
# digits (its values at 50 and 100 digits agree) and lie between these bounds (beyond them
# it may be an evaluation's noise: tan(pi/2), sin(pi)). It is then evaluated to the
# decimal's places and 50 digits more: the decimal is equal to it when they agree to all
# but the last 10 of those digits, else it must be the value rounded to its places.
_SMALLEST = mpmath.mpf(10) ** -20
_LARGEST = mpmath.mpf(10) ** 15
_KNOWN = mpmath.mpf(10) ** -45
_MAX_PLACES = 1000


def rounds_to(text: str, decimal: Fraction, places: int) -> bool | None:
    """Whether the decimal ``decimal``, written to ``places`` places, stands for the value
    of the expression ``text`` (without unknowns) by the one rule of the symbolic engine's
    numbers: equal to it, or it rounded (``written_numbers.approximates``). None when the
    expression is not read, not a real number known to 45 digits within the bounds above,
    or too near the edge of the decimal's rounding to tell."""
    expression = read_expression(text)
    if expression is None or expression.unknowns or places > _MAX_PLACES:
        return None
    digits = max(2 * _DIGITS, places + _DIGITS)
    rough, value = _evaluated(expression, {}, _DIGITS), _evaluated(expression, {}, digits)
    if rough is None or value is None or mpmath.im(rough) != 0 or mpmath.im(value) != 0:
        return None
    with mpmath.workdps(digits):
        real = mpmath.re(value)
        size = abs(real)
        if not _SMALLEST <= size <= _LARGEST or abs(mpmath.re(rough) - real) > size * _KNOWN:
            return None
        error = mpmath.mpf(10) ** (10 - digits)
        apart = abs(real - mpmath.mpf(decimal.numerator) / decimal.denominator)
        if apart <= size * error:
            return True
        scale = 2 * mpmath.mpf(10) ** places
        if abs(apart * scale - 1) <= size * scale * error:
            return None
        # The exact binary value: its mantissa (without sign) times a power of two.
        exact = Fraction(int(real.man) * (-1 if real < 0 else 1)) * Fraction(2) ** int(real.exp)
    return approximates(exact, decimal, places)


def unknowns(text: str, letters_multiply: bool = False) -> frozenset[str] | None:
    """The names of the unknowns of an expression the reader reads, else None."""
    expression = read_expression(text, letters_multiply)
    return None if expression is None else expression.unknowns


__all__ = ["Expression", "probe", "read_expression", "rounds_to", "unknowns"]
