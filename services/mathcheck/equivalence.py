"""Decide whether an answer equals a reference: string, then number, then symbolic.

The first two steps are exact, cheap and run inline; only what they cannot decide goes to
the symbolic engine in a worker process (see ``pool.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from services.mathcheck.normalization import normalize_answer, numbers_match, parse_number


class Method(StrEnum):
    STRING = "string"
    NUMERIC = "numeric"
    SYMBOLIC = "symbolic"


@dataclass(frozen=True)
class QuickVerdict:
    equal: bool
    method: Method


_WORDS = re.compile(r"^[a-z][a-z \-']*$")


def quick_verdict(reference_norm: str, answer_norm: str) -> QuickVerdict | None:
    """Verdict from normalised strings when no symbolic work is needed, else None."""
    if reference_norm == answer_norm:
        return QuickVerdict(True, Method.STRING)
    reference_number = parse_number(reference_norm)
    answer_number = parse_number(answer_norm)
    if reference_number is not None and answer_number is not None:
        return QuickVerdict(numbers_match(reference_number, answer_number), Method.NUMERIC)
    if _is_text(reference_norm) and _is_text(answer_norm):
        # Two different words ("east" vs "west"): nothing symbolic can make them equal.
        return QuickVerdict(False, Method.STRING)
    return None


def _is_text(normalized: str) -> bool:
    # Normalisation lower-cases pure words; a single letter may be a variable, so leave it.
    return len(normalized) > 1 and _WORDS.match(normalized) is not None


__all__ = ["Method", "QuickVerdict", "normalize_answer", "quick_verdict"]
