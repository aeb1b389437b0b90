"""Decide whether an answer equals a reference: string, then number, then symbolic.

The first steps (strings, numbers, and sets, tuples, intervals and matrices of plain
numbers) are exact, cheap and run inline; only what they cannot decide goes to the
symbolic engine in a worker process (see ``pool.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from services.mathcheck.normalization import (
    ParsedNumber,
    normalize_answer,
    numbers_match,
    parse_number,
)
from services.mathcheck.structures import NumberSet, parse_structure, structures_equal


class Method(StrEnum):
    STRING = "string"
    NUMERIC = "numeric"
    STRUCTURAL = "structural"
    SYMBOLIC = "symbolic"


@dataclass(frozen=True)
class QuickVerdict:
    equal: bool
    method: Method


_WORDS = re.compile(r"^[a-z][a-z \-']*$")


# "x = 2" (one unknown, one value): the unknown's name matters when both sides give one.
_SOLVED_FOR = re.compile(r"^\s*\$?\s*([a-zA-Z])\s*=\s*[^=,;]*$")
_LIST_WORDS = re.compile(r"\\text|\bor\b|\band\b")


def solved_for_different_unknowns(reference: str, answer: str) -> bool:
    """ "x = 2" vs "y = 2": normalisation drops "x =", yet these name different unknowns."""
    left, right = _SOLVED_FOR.match(reference), _SOLVED_FOR.match(answer)
    if left is None or right is None or _LIST_WORDS.search(reference + answer):
        return False
    return left.group(1) != right.group(1)


_CHOICE_LETTER = re.compile(r"^[A-E]$")


def _number_against_list(number: ParsedNumber | None, other: str) -> QuickVerdict | None:
    """ "2" vs "2, 3": a number equals a list of solutions only when the list is that one
    number ("7" vs "7, 7")."""
    if number is None or number.percent or number.decimal_places is not None:
        return None
    listed = parse_structure(other)
    if not isinstance(listed, NumberSet):
        return None
    return QuickVerdict(listed.values == {number.value}, Method.STRUCTURAL)


def quick_verdict(reference_norm: str, answer_norm: str) -> QuickVerdict | None:
    """Verdict from normalised strings when no symbolic work is needed, else None."""
    if reference_norm == answer_norm:
        return QuickVerdict(True, Method.STRING)
    reference_number = parse_number(reference_norm)
    answer_number = parse_number(answer_norm)
    if reference_number is not None and answer_number is not None:
        return QuickVerdict(numbers_match(reference_number, answer_number), Method.NUMERIC)
    single = _number_against_list(reference_number, answer_norm) or _number_against_list(
        answer_number, reference_norm
    )
    if single is not None:
        return single
    if _CHOICE_LETTER.match(reference_norm) and _CHOICE_LETTER.match(answer_norm):
        # Two different option letters (normalisation made both upper case).
        return QuickVerdict(False, Method.STRING)
    if _same_terms(reference_norm, answer_norm):
        return QuickVerdict(True, Method.STRING)
    structural = structures_equal(reference_norm, answer_norm)
    if structural is not None:
        return QuickVerdict(structural, Method.STRUCTURAL)
    if (
        _is_text(reference_norm)
        and _is_text(answer_norm)
        and sorted(reference_norm.replace(" ", "")) != sorted(answer_norm.replace(" ", ""))
    ):
        # Two different words ("east" vs "west"): read as products of single-letter symbols
        # they differ too, so the symbolic engine would agree. Words with the same letters
        # ("ab" vs "ba") may be one product written twice: those go to the symbolic path.
        return QuickVerdict(False, Method.STRING)
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


def _is_text(normalized: str) -> bool:
    # Normalisation lower-cases pure words; a single letter may be a variable, so leave it.
    return len(normalized) > 1 and _WORDS.match(normalized) is not None


__all__ = ["Method", "QuickVerdict", "normalize_answer", "quick_verdict"]
