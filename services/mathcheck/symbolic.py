"""Symbolic equality through math-verify, made safe to call from a worker process.

math-verify parses LaTeX with latex2sympy2_extended and compares with sympy. Wrapped
here because:
* its timeouts use ``signal.alarm`` (main thread only) and raise a ``BaseException``;
  they are disabled and the caller's process pool enforces a hard deadline instead;
* it is not symmetric: the gold answer must come first;
* it rounds floats to 6 decimals, so distinct tiny numbers (``1/2^99`` and ``1/2^98``)
  compare equal: numeric verdicts are re-checked with a relative tolerance;
* it demands six decimals of a rounded answer, where datasets and models write three or
  four (``(0.6, 2.6667]`` for ``(3/5, 8/3]``, ``1.5708`` for ``\\pi/2``): a decimal is also
  accepted when it is the exact value rounded to the places it was written with (at least
  three, see ``normalization.approximates``);
* its normaliser drops a trailing "unit" from a list that includes one-letter variables
  (``2t`` read as 2): that stripping is off, and closing notes and units are taken off
  before parsing (``normalization.without_note``);
* "x < -1 or x > 1" parses as a set of two relations, which it never compares with the
  union of intervals it describes: such a set is turned into that union.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

# Relative tolerance for numeric values math-verify calls equal: enough for an answer given
# to six significant digits, far too tight for two different powers of two.
NUMERIC_RELATIVE_TOLERANCE = 1e-5
# A lone "i" (not part of a word or a command such as \pi or \sin).
_IMAGINARY_UNIT = re.compile(r"(?<![a-zA-Z\\])i(?![a-zA-Z])")


@dataclass(frozen=True)
class SymbolicVerdict:
    equal: bool
    detail: str
    parsed: bool = True  # both sides parsed to math objects (not just string fallbacks)


# Spellings the parser reads as something else: \mathrm{e} as a symbol "e", not Euler's number,
# and the base of \log_e as that symbol too.
_SPELLINGS = (
    ("\\mathrm{e}", "e"),
    ("\\operatorname{e}", "e"),
    ("\\mathrm{i}", "i"),
    ("\\log_{e}", "\\ln"),
    ("\\log_e", "\\ln"),
)
_DECIMAL_PLACES = re.compile(r"\d\.(\d+)")


@functools.cache
def _latex_config() -> Any:
    """math-verify's LaTeX settings with its unit stripping off: it drops a trailing letter
    from a list that includes t, s, h, m, g, c, d and l ("2t" read as 2, "x + t" as "x +").
    Closing notes and units are taken off before parsing instead (``without_note``)."""
    from math_verify import LatexExtractionConfig, LatexNormalizationConfig

    normalization = LatexNormalizationConfig(
        basic_latex=True, units=False, malformed_operators=True, nits=True, boxed="all"
    )
    return LatexExtractionConfig(normalization_config=normalization)


def _parse(text: str) -> list[Any]:
    return list(_parse_cached(text))


# References recur across the completions of a group, and answers across groups.
@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> tuple[Any, ...]:
    from math_verify import ExprExtractionConfig, parse

    from services.mathcheck import two_stage_parsing
    from services.mathcheck.normalization import without_note

    two_stage_parsing.install()
    for spelling, meaning in _SPELLINGS:
        text = text.replace(spelling, meaning)
    wrapped = "\\boxed{" + without_note(text) + "}"
    return tuple(
        parse(
            wrapped,
            extraction_config=[_latex_config(), ExprExtractionConfig()],
            parsing_timeout=None,  # the pool enforces the deadline
        )
    )


def _numeric_value(expr: Any) -> Any | None:
    """A 50-digit value when ``expr`` is a plain (possibly irrational) number."""
    import sympy

    if not isinstance(expr, sympy.Basic) or isinstance(expr, sympy.Set | sympy.Tuple):
        return None
    if expr.free_symbols or not expr.is_number:
        return None
    value = sympy.N(expr, 50)
    if not value.is_real:
        return None
    return value


def _numbers_disagree(gold: Any, pred: Any) -> bool:
    a, b = _numeric_value(gold), _numeric_value(pred)
    if a is None or b is None:
        return False
    if a == b:
        return False
    magnitude = max(abs(a), abs(b))
    return bool(abs(a - b) > NUMERIC_RELATIVE_TOLERANCE * magnitude)


def _as_complex(parsed: list[Any]) -> list[Any]:
    """Read a free symbol ``i`` as the imaginary unit.

    The parser only does so when it spots complex notation in the same string, so "2i"
    alone stays 2·i and would never equal "(1+i)^2" parsed with the real unit.
    """
    import sympy

    def substitute(item: Any) -> Any:
        if not isinstance(item, sympy.Basic):
            return item
        # The parser attaches assumptions (real=True/False), so match by name.
        units = {s: sympy.I for s in item.free_symbols if getattr(s, "name", None) == "i"}
        return item.subs(units) if units else item

    return [substitute(item) for item in parsed]


def symbolic_equal(reference: str, answer: str) -> SymbolicVerdict:
    """Whether ``answer`` equals ``reference`` as mathematics (reference is the gold)."""
    from math_verify import verify

    gold = _parse(reference)
    pred = _parse(answer)
    if not gold:
        return SymbolicVerdict(False, "reference could not be parsed", parsed=False)
    if not pred:
        return SymbolicVerdict(False, "answer could not be parsed", parsed=False)
    parsed = not isinstance(gold[0], str) and not isinstance(pred[0], str)
    if _IMAGINARY_UNIT.search(reference) or _IMAGINARY_UNIT.search(answer):
        gold, pred = _as_complex(gold), _as_complex(pred)
    if _numbers_disagree(gold[0], pred[0]):
        # Two plain numbers apart beyond the tolerance: whatever math-verify would say, the
        # verdict is "not equal" unless one is the other rounded, so its symbolic
        # comparison (sympy's simplify, slow on radicals) is skipped.
        different = SymbolicVerdict(False, "numerically different beyond relative tolerance")
        return _unless_rounded(gold[0], pred[0], reference, answer, different)
    comparable = _as_comparable(gold[0], pred[0])
    if comparable is not None and verify(
        [comparable[0]], [comparable[1]], timeout_seconds=None, allow_set_relation_comp=True
    ):
        return SymbolicVerdict(True, "the relations describe the same set")
    # allow_set_relation_comp: "x \le 2" describes the same set as "(-\infty, 2]".
    if not verify(gold, pred, timeout_seconds=None, allow_set_relation_comp=True):
        different = SymbolicVerdict(False, "not equivalent", parsed)
        return _unless_rounded(gold[0], pred[0], reference, answer, different)
    if _numbers_disagree(gold[0], pred[0]):
        return SymbolicVerdict(False, "numerically different beyond relative tolerance")
    return SymbolicVerdict(True, "symbolically equivalent")


def _unless_rounded(
    gold: Any, pred: Any, reference: str, answer: str, different: SymbolicVerdict
) -> SymbolicVerdict:
    """Equal when one side is the other rounded to its written decimals, else ``different``."""
    if different.parsed and _approximately_equal(gold, pred, _places(reference), _places(answer)):
        return SymbolicVerdict(True, "equal up to the rounding of the written decimals")
    return different


def _as_comparable(gold: Any, pred: Any) -> tuple[Any, Any] | None:
    """Both sides in a form math-verify compares, when one of them is not: relations as the
    sets they describe, a vector against a tuple as a tuple. None when nothing changes."""
    converted = _relations_as_set(gold), _relations_as_set(pred)
    if converted == (None, None):
        converted = _vector_as_tuple(gold, pred), _vector_as_tuple(pred, gold)
    if converted == (None, None):
        return None
    left, right = converted
    return (gold if left is None else left, pred if right is None else right)


def _relations_as_set(expr: Any) -> Any | None:
    """The set of real values a relation in one variable describes: ``x^2 < 4`` as
    ``(-2, 2)``, "x < -1 or x > 1" (parsed as a set of two relations) as a union."""
    import sympy

    if isinstance(expr, sympy.FiniteSet) and len(expr.args) >= 2:
        relations = expr.args
    elif isinstance(expr, sympy.Rel | sympy.And) and not isinstance(expr, sympy.Eq):
        relations = (expr,)
    else:
        return None
    if not all(
        isinstance(r, sympy.Rel | sympy.And) and not isinstance(r, sympy.Eq) for r in relations
    ):
        return None
    if len({symbol for r in relations for symbol in r.free_symbols}) != 1:
        return None
    try:
        return sympy.Union(*(r.as_set() for r in relations))
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return None


def _vector_as_tuple(expr: Any, other: Any) -> Any | None:
    """A column or row vector compared with a tuple, as the tuple of its entries."""
    import sympy

    if isinstance(expr, sympy.MatrixBase) and isinstance(other, sympy.Tuple) and 1 in expr.shape:
        return sympy.Tuple(*expr)
    return None


def _places(text: str) -> int | None:
    """The fewest decimals any decimal number in ``text`` is written with, or None."""
    places = [len(digits) for digits in _DECIMAL_PLACES.findall(text)]
    return min(places) if places else None


def _leaf_values(expr: Any) -> list[Any] | None:
    """The numbers of a number, interval, union, tuple, set or matrix, with its shape."""
    import sympy

    if isinstance(expr, sympy.MatrixBase):
        return [("matrix", expr.shape), *expr]
    if isinstance(expr, sympy.Interval):
        return [("interval", expr.left_open, expr.right_open), expr.start, expr.end]
    if isinstance(expr, sympy.Union | sympy.Tuple):
        leaves: list[Any] = [(type(expr).__name__, len(expr.args))]
        for arg in expr.args:
            inner = _leaf_values(arg)
            if inner is None:
                return None
            leaves.extend(inner)
        return leaves
    if isinstance(expr, sympy.FiniteSet) and all(
        arg.is_number and arg.is_real for arg in expr.args
    ):
        # A set in the order of its values, so that "1/3, 1.732" lines up with "1/3, \sqrt3".
        ordered = sorted(expr.args, key=lambda arg: float(sympy.N(arg)))
        return [("FiniteSet", len(ordered)), *ordered]
    if isinstance(expr, sympy.Basic) and expr.is_number:
        return [expr]
    return None


def _approximately_equal(
    gold: Any, pred: Any, gold_places: int | None, pred_places: int | None
) -> bool:
    """Same shape, every number equal or one side the other rounded to its written places."""
    import sympy

    if gold_places is None and pred_places is None:
        return False
    left, right = _leaf_values(gold), _leaf_values(pred)
    if left is None or right is None or len(left) != len(right):
        return False
    for mine, theirs in zip(left, right, strict=True):
        if isinstance(mine, tuple) or isinstance(theirs, tuple):
            if mine != theirs:
                return False
            continue
        if mine == theirs:
            continue
        rounded, places = (theirs, pred_places) if theirs.is_Float else (mine, gold_places)
        exact = mine if rounded is theirs else theirs
        if places is None or places < 1 or not rounded.is_Float:
            return False
        if not _rounds_to(sympy.N(exact, 50), sympy.N(rounded, 50), places):
            return False
    return True


def _rounds_to(exact: Any, rounded: Any, places: int) -> bool:
    """``normalization.approximates`` on two sympy numbers: ``rounded`` read back as the
    decimal it was written as, ``exact`` to 50 digits."""
    from services.mathcheck.normalization import approximates

    if not (exact.is_real and rounded.is_real):
        return False
    try:
        exact_value = Fraction(str(exact))
        written = Fraction(round(Fraction(str(rounded)) * 10**places), 10**places)
    except (ValueError, ZeroDivisionError):  # an infinity or a NaN has no digits
        return False
    return approximates(exact_value, written, places)


def warm_up(
    answers: tuple[str, ...] = (), pairs: tuple[tuple[str, str], ...] = (("\\frac{1}{2}", "0.5"),)
) -> None:
    """Parse ``answers`` and compare ``pairs`` so that the first real items are not slow."""
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    for answer in answers:
        _parse(answer)
    for reference, answer in pairs:
        symbolic_equal(reference, answer)
    # Warm-up answers are not the service's own: keep them out of the parse cache.
    _parse_cached.cache_clear()
