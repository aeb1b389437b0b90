"""Symbolic equality through math-verify, made safe to call from a worker process.

math-verify parses LaTeX with latex2sympy2_extended and compares with sympy. Wrapped
here because:
* its timeouts use ``signal.alarm`` (main thread only) and raise a ``BaseException``;
  they are disabled and the caller's process pool enforces a hard deadline instead;
* it is not symmetric: the gold answer must come first;
* it rounds floats to 6 decimals, so distinct tiny numbers (``1/2^99`` and ``1/2^98``)
  compare equal: numeric verdicts are re-checked with a relative tolerance.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
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


def _parse(text: str) -> list[Any]:
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    wrapped = "\\boxed{" + text + "}"
    return list(
        parse(
            wrapped,
            extraction_config=[LatexExtractionConfig(), ExprExtractionConfig()],
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
    # allow_set_relation_comp: "x \le 2" describes the same set as "(-\infty, 2]".
    if not verify(gold, pred, timeout_seconds=None, allow_set_relation_comp=True):
        return SymbolicVerdict(False, "not equivalent", parsed)
    if _numbers_disagree(gold[0], pred[0]):
        return SymbolicVerdict(False, "numerically different beyond relative tolerance")
    return SymbolicVerdict(True, "symbolically equivalent")


def warm_up() -> None:
    """Import and exercise the parser once so the first real item is not slow."""
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    symbolic_equal("\\frac{1}{2}", "0.5")
