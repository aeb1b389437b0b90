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
from dataclasses import dataclass
from typing import Any

# Relative tolerance for numeric values math-verify calls equal: enough for an answer given
# to six significant digits, far too tight for two different powers of two.
NUMERIC_RELATIVE_TOLERANCE = 1e-5


@dataclass(frozen=True)
class SymbolicVerdict:
    equal: bool
    detail: str


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


def symbolic_equal(reference: str, answer: str) -> SymbolicVerdict:
    """Whether ``answer`` equals ``reference`` as mathematics (reference is the gold)."""
    from math_verify import verify

    gold = _parse(reference)
    pred = _parse(answer)
    if not gold:
        return SymbolicVerdict(False, "reference could not be parsed")
    if not pred:
        return SymbolicVerdict(False, "answer could not be parsed")
    if not verify(gold, pred, timeout_seconds=None):
        return SymbolicVerdict(False, "not equivalent")
    if _numbers_disagree(gold[0], pred[0]):
        return SymbolicVerdict(False, "numerically different beyond relative tolerance")
    return SymbolicVerdict(True, "symbolically equivalent")


def warm_up() -> None:
    """Import and exercise the parser once so the first real item is not slow."""
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    symbolic_equal("\\frac{1}{2}", "0.5")
