"""Decide whether an answer equals a reference: string, then number, then symbolic.

The first steps (strings, numbers, and sets, tuples, intervals and matrices of plain
numbers) are exact, cheap and run inline; only what they cannot decide goes to the
symbolic engine in a worker process (see ``pool.py``).
"""

from __future__ import annotations

import re

from services.mathcheck.comparison import Method, Verdict, equal
from services.mathcheck.normalization import normalize_answer
from services.mathcheck.reading import read_normalized
from services.mathcheck.structures import structures_equal

# The verdict of a fast check; the name stays for the callers that use it.
QuickVerdict = Verdict


def quick_verdict(reference_norm: str, answer_norm: str) -> QuickVerdict | None:
    """Verdict from normalised strings when no symbolic work is needed, else None."""
    reference, answer = read_normalized(reference_norm), read_normalized(answer_norm)
    typed = equal(reference, answer)
    if typed is not None:
        return typed
    if _same_terms(reference_norm, answer_norm):
        return QuickVerdict(True, Method.STRING)
    structural = structures_equal(reference_norm, answer_norm)
    if structural is not None:
        return QuickVerdict(structural, Method.STRUCTURAL)
    return None


# Top-level sums are only reordered when nothing else could bind to a split sign.
_UNSAFE_FOR_TERMS = re.compile(r"[=<>,;]|\\(?:cup|cap|pm|mp|le|ge|ne|to|infty)|\d[eE]|[\^_][+-]")


def _terms(normalized: str) -> list[str] | None:
    """Signed top-level terms of a sum, or None when splitting would not be sound."""
    if _UNSAFE_FOR_TERMS.search(normalized):
        return None
    terms: list[str] = []
    depth = 0
    current = ""
    for char in normalized:
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
        if char in "+-" and depth == 0 and current and current[-1] not in "+-*/^_":
            terms.append(current)
            current = ""
        current += char
    terms.append(current)
    if len(terms) < 2:
        return None
    return sorted(term if term[0] in "+-" else "+" + term for term in terms)


def _same_terms(reference_norm: str, answer_norm: str) -> bool:
    """The same sum with its terms in another order: "x^2-5x+6" vs "6-5x+x^2"."""
    left = _terms(reference_norm)
    return left is not None and left == _terms(answer_norm)


__all__ = ["Method", "QuickVerdict", "normalize_answer", "quick_verdict"]
