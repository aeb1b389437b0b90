"""Compare two expressions by their values, without the symbolic engine.

Most expressions that reach sympy are short: ``\\frac{n(n+1)}{2}`` against
``(n^2+n)/2``, ``2x\\cos(x^2)`` against ``\\cos(x^2) \\cdot 2x``, ``8`` against ``2^3``.
``read_expression`` reads such an expression (LaTeX or plain text, already normalised)
into a small tree, and ``probe`` evaluates both sides to 50 digits (mpmath) with the
same random values for their unknowns:

* no unknowns: different when the values differ beyond 20 digits; equal when they agree
  to 90 digits and still agree to 990 evaluated again to 1,000 digits (``1 - 2^{-300}``
  agrees with ``1`` to 90 digits, not to 990: the symbolic engine compares such exact
  values exactly);
* unknowns (the same on both sides): different when the values differ at a positive
  point, equal when they agree at every point, positive and negative (at the first to
  1,000 digits, as without unknowns); values that agree
  only where the unknowns are positive (``\\sqrt{x^2}`` against ``x``) are left to sympy.

``rounds_to`` judges a decimal against an expression without unknowns by the symbolic
engine's rule for numbers (equal, or the value rounded to the decimal's own places), and
leaves to that engine what its 50-digit error could tip either way.

Two different analytic functions agree only on a set of measure zero, so random points
tell them apart. Anything the reader is not sure of (a decimal, whose rounding the
symbolic engine or ``rounds_to`` judges; a function without parentheses, ``\\cos 2x``; a
subscript other than a logarithm's base, an absolute value, a relation, a set, a word of
several letters, a huge exponent) is not read, and the pair goes to the symbolic engine as before.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from services.mathcheck.normalization import approximates

# A value: a function of the unknowns' values.
Value = Callable[[dict[str, mpmath.mpc]], mpmath.mpc]

_DIGITS = 50
# Equal: apart by less than the error of evaluating at twice the digits, and again at
# 1,000 digits (a difference of 2^{-300} is below the first error, not the second).
_SAME = mpmath.mpf(10) ** -90
_EXACT_DIGITS = 1000
_EXACT_SAME = mpmath.mpf(10) ** -990
_APART = mpmath.mpf(10) ** -20
# Exponents and factorials beyond these are left to the symbolic engine (and its deadline).
_MAX_EXPONENT = 1000
_MAX_FACTORIAL = 500
_POINTS = 4

_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+)|(?P<command>\\[a-zA-Z]+)|(?P<word>[a-zA-Z]+)|(?P<op>\*\*|[-+*/^(){}\[\]!_]))"
)
# Commands and words that name a function of one argument in parentheses or braces.
_FUNCTIONS: dict[str, Callable[[mpmath.mpc], mpmath.mpc]] = {
    "\\sin": mpmath.sin,
    "\\cos": mpmath.cos,
    "\\tan": mpmath.tan,
    "\\sec": mpmath.sec,
    "\\csc": mpmath.csc,
    "\\cot": mpmath.cot,
    "\\ln": mpmath.log,
    "\\exp": mpmath.exp,
    "sqrt": mpmath.sqrt,
    "sin": mpmath.sin,
    "cos": mpmath.cos,
    "tan": mpmath.tan,
    "exp": mpmath.exp,
    "ln": mpmath.log,
}
_FRACTIONS = ("\\frac", "\\dfrac", "\\tfrac", "\\cfrac")
_CONSTANTS = {"\\pi": mpmath.pi, "pi": mpmath.pi}
_TIMES = ("\\cdot", "\\times", "*")
_CLOSING = {"(": ")", "{": "}", "[": "]"}
# Letters that may start the name of a function written without its backslash.
_FUNCTION_WORDS = ("sin", "cos", "tan", "sec", "csc", "cot", "log", "ln", "exp", "sqr", "pi", "arc")
_MAX_LETTER_PRODUCT = 3


class _Unreadable(Exception):
    """The reader is not sure what the text means."""


@dataclass(frozen=True)
class Expression:
    """An expression read for evaluation: its value and the names of its unknowns."""

    value: Value
    unknowns: frozenset[str]


class _Reader:
    def __init__(self, text: str, letters_multiply: bool = False) -> None:
        # In a function's formula, letters written together are a product of one-letter
        # names ("cx" is c·x); elsewhere such a word may be a name, and is not read.
        self.letters_multiply = letters_multiply
        self.tokens: list[tuple[str, str]] = []
        position = 0
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                if text[position:].strip() == "":
                    break
                raise _Unreadable(text[position:])
            kind = match.lastgroup
            assert kind is not None
            self.tokens.append((kind, match.group(kind)))
            position = match.end()
        self.index = 0
        self.unknowns: set[str] = set()

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, expected: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (expected is not None and token[1] != expected):
            raise _Unreadable(f"expected {expected}")
        self.index += 1
        return token

    def whole(self) -> Value:
        value = self.sum()
        if self.peek() is not None:
            raise _Unreadable("trailing text")
        return value

    def sum(self) -> Value:
        sign = self._sign()
        value = self.product()
        if sign < 0:
            value = _negated(value)
        while (token := self.peek()) is not None and token[1] in "+-":
            self.take()
            term = self.product()
            value = _combined(value, term, mpmath.fadd if token[1] == "+" else mpmath.fsub)
        return value

    def _sign(self) -> int:
        token = self.peek()
        if token is not None and token[1] in "+-":
            self.take()
            return -1 if token[1] == "-" else 1
        return 1

    def product(self) -> Value:
        value = self.power()
        while (token := self.peek()) is not None:
            if token[1] in _TIMES:
                self.take()
                value = _combined(value, self.power(), mpmath.fmul)
            elif token[1] in ("/", "\\div"):
                self.take()
                value = _combined(value, self.power(), mpmath.fdiv)
                after = self.peek()
                if after is not None and self._starts_factor(after):
                    # "a/bc": a/(bc) or (a/b)c, read either way by someone.
                    raise _Unreadable("a product after a division")
            elif self._starts_factor(token):
                # Implicit multiplication: "2x", "2\\sqrt{3}", "(x+1)(x-1)".
                value = _combined(value, self.power(), mpmath.fmul)
            else:
                break
        return value

    @staticmethod
    def _starts_factor(token: tuple[str, str]) -> bool:
        kind, text = token
        return kind in ("number", "word", "command") or text in ("(", "{")

    def power(self) -> Value:
        base = self.factorial(self.atom())
        token = self.peek()
        if token is None or token[1] not in ("^", "**"):
            return base
        self.take()
        return _power(base, self._exponent())

    def _exponent(self) -> Value:
        token = self.peek()
        if token is not None and token[1] == "(":
            return self.group()
        if token is not None and token[1] == "-":
            self.take()
            return _negated(self._exponent())
        return self._braced()

    def factorial(self, value: Value) -> Value:
        while (token := self.peek()) is not None and token[1] == "!":
            self.take()
            value = _factorial(value)
        return value

    def group(self) -> Value:
        opening = self.take()[1]
        if opening not in _CLOSING:
            raise _Unreadable("group")
        value = self.sum()
        self.take(_CLOSING[opening])
        return value

    def atom(self) -> Value:
        token = self.peek()
        if token is None:
            raise _Unreadable("missing operand")
        kind, text = token
        if text in ("(", "{"):
            return self.group()
        if kind == "number":
            self.take()
            return _integer(int(text))
        if kind not in ("command", "word"):
            raise _Unreadable(text)
        self.take()
        if text in _CONSTANTS:
            return _constant(_CONSTANTS[text])
        if text in _FUNCTIONS:
            power = self._function_power()
            value = _applied(_FUNCTIONS[text], self._argument(text))
            return value if power is None else _power(value, _integer(power))
        return self._command(text) if kind == "command" else self._letter(text)

    def _command(self, name: str) -> Value:
        if name in _FRACTIONS:
            numerator = self._braced()
            return _combined(numerator, self._braced(), mpmath.fdiv)
        if name == "\\sqrt" and self.peek() == ("op", "["):
            self.take()
            degree = self.sum()
            self.take("]")
            return _power(self._braced(), _combined(_integer(1), degree, mpmath.fdiv))
        if name == "\\sqrt":
            return _applied(mpmath.sqrt, self._braced())
        if name == "\\binom":
            return _binomial(self._braced(), self._braced())
        if name == "\\log" and self.peek() == ("op", "_"):
            return self._logarithm()
        raise _Unreadable(name)

    def _letter(self, letter: str) -> Value:
        if len(letter) != 1 and self._product_of_letters(letter):
            value = self._letter(letter[0])
            for other in letter[1:]:
                value = _combined(value, self._letter(other), mpmath.fmul)
            return value
        if len(letter) != 1:
            # "ab" may be a·b or a name; "sinx" a function without parentheses.
            raise _Unreadable(letter)
        if letter == "e":
            return _constant(mpmath.e)
        if letter == "i":
            return _constant(mpmath.mpc(0, 1))
        self.unknowns.add(letter)
        return lambda point: point[letter]

    def _product_of_letters(self, word: str) -> bool:
        """Whether ``word`` is read as one-letter names multiplied: only in a function's
        formula, up to three letters, none of them the start of a function's name
        ("sinx", "lnx", "cosx" stay unread)."""
        return (
            self.letters_multiply
            and len(word) <= _MAX_LETTER_PRODUCT
            and not word.lower().startswith(_FUNCTION_WORDS)
        )

    def _braced(self) -> Value:
        """A group in braces, or one digit or one letter: "\\frac12"; "x^2y" is x²·y, and
        "x^23" is not read (x²·3 in LaTeX, x²³ in plain text)."""
        token = self.peek()
        if token is None:
            raise _Unreadable("missing argument")
        kind, text = token
        if text == "{":
            return self.group()
        if kind == "number" and len(text) == 1:
            self.take()
            return _integer(int(text))
        if kind == "word" and len(text) == 1:
            self.take()
            return self._letter(text)
        raise _Unreadable("argument")

    def _logarithm(self) -> Value:
        """A logarithm with its base: ``\\log_{2}(8)``, ``\\log_2 8``; an argument of one
        number alone (``\\log_2 8x`` may be log(8x) or log(8)·x is not read)."""
        self.take("_")
        base = self._braced()
        token = self.peek()
        if token is not None and token[0] == "number":
            self.take()
            argument = _integer(int(token[1]))
            after = self.peek()
            if after is not None and (self._starts_factor(after) or after[1] in ("^", "!")):
                raise _Unreadable("a logarithm's argument")
        elif token is not None and token[1] in ("(", "{"):
            argument = self.group()
        else:
            raise _Unreadable("a logarithm's argument")
        return _combined(_applied(mpmath.log, argument), _applied(mpmath.log, base), mpmath.fdiv)

    def _function_power(self) -> int | None:
        """The power written between a function and its argument, a whole number from 2 up:
        ``\\tan^2(y)`` is tan(y)²; ``\\sin^{-1}`` (the inverse) and ``\\sin^1`` are not read."""
        if self.peek() != ("op", "^"):
            return None
        self.take()
        braced = self.peek() == ("op", "{")
        if braced:
            self.take()
        token = self.peek()
        if token is None or token[0] != "number" or (not braced and len(token[1]) != 1):
            raise _Unreadable("power of a function")
        self.take()
        if braced:
            self.take("}")
        if int(token[1]) < 2:
            raise _Unreadable("power of a function")
        return int(token[1])

    def _argument(self, name: str) -> Value:
        """A function's argument: in parentheses, or braces after a command."""
        token = self.peek()
        if token is not None and (token[1] == "(" or (token[1] == "{" and name[0] == "\\")):
            return self.group()
        raise _Unreadable(f"{name} without parentheses")


def _constant(value: mpmath.mpf | mpmath.mpc) -> Value:
    return lambda _point: value


def _integer(number: int) -> Value:
    # Made at the precision of each evaluation, so that no digit of a long one is lost.
    return lambda _point: mpmath.mpf(number)


def _negated(value: Value) -> Value:
    return lambda point: -value(point)


def _combined(left: Value, right: Value, operation: Callable[..., mpmath.mpc]) -> Value:
    return lambda point: operation(left(point), right(point))


def _applied(function: Callable[[mpmath.mpc], mpmath.mpc], argument: Value) -> Value:
    return lambda point: function(argument(point))


def _power(base: Value, exponent: Value) -> Value:
    def value(point: dict[str, mpmath.mpc]) -> mpmath.mpc:
        power = exponent(point)
        if abs(power) > _MAX_EXPONENT:
            raise _Unreadable("huge exponent")
        return mpmath.power(base(point), power)

    return value


def _whole(value: mpmath.mpc) -> int:
    if mpmath.im(value) != 0 or mpmath.re(value) != mpmath.nint(mpmath.re(value)):
        raise _Unreadable("not a whole number")
    return int(mpmath.nint(mpmath.re(value)))


def _factorial(argument: Value) -> Value:
    def value(point: dict[str, mpmath.mpc]) -> mpmath.mpc:
        whole = _whole(argument(point))
        if not 0 <= whole <= _MAX_FACTORIAL:
            raise _Unreadable("factorial")
        return mpmath.mpf(math.factorial(whole))

    return value


def _binomial(top: Value, bottom: Value) -> Value:
    def value(point: dict[str, mpmath.mpc]) -> mpmath.mpc:
        n, k = _whole(top(point)), _whole(bottom(point))
        if not 0 <= n <= _MAX_FACTORIAL:
            raise _Unreadable("binomial")
        return mpmath.mpf(math.comb(n, k) if k >= 0 else 0)

    return value


# Text the reader never takes: decimals (their rounding is the symbolic engine's to judge),
# relations, sets and lists, subscripts, absolute values, primes, percents, and scientific
# notation ("1e-3" is not 1·e − 3).
_NOT_READ = re.compile(r"[.,;:=<>|_'%$&~\"]|\d[eE][+-]?\d")
# A logarithm's base is the one subscript read.
_BASE = re.compile(r"\\log_")


def read_expression(text: str, letters_multiply: bool = False) -> Expression | None:
    """``text`` read for evaluation, or None when the reader is not sure what it means
    (``letters_multiply``: a function's formula, where ``cx`` is c·x)."""
    if _NOT_READ.search(_BASE.sub("", text)) is not None:
        return None
    text = text.replace("\\left", "").replace("\\right", "")
    try:
        reader = _Reader(text, letters_multiply)
        value = reader.whole()
    except (_Unreadable, RecursionError):
        return None
    return Expression(value, frozenset(reader.unknowns))


def _evaluated(expression: Expression, point: dict[str, float], digits: int) -> mpmath.mpc | None:
    try:
        with mpmath.workdps(digits):
            return _checked(expression.value({name: mpmath.mpc(x) for name, x in point.items()}))
    except (_Unreadable, ZeroDivisionError, ValueError, OverflowError):
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
    numbers: equal to it, or it rounded (``normalization.approximates``). None when the
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
