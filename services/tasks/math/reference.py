"""Whether a math item's reference can judge an answer at all.

A label that holds no answer would otherwise score every completion as wrong (−1) or, worse,
accept a completion that echoes the same nothing (an empty ``\\boxed{}`` against
``\\boxed{}``). Such an item is an error, with the reason, and earns no reward: an empty or
whitespace-only reference, one with a control character (a NUL byte from a broken export),
and one whose final answer, as the checker reads it, has no letter, digit or mathematical
symbol in it (``$$``, ``\\boxed{}``, ``####``, ``???``).
"""

from __future__ import annotations

import re
import unicodedata

from services.mathcheck.normalization import normalize_answer

# Line breaks and tabs are layout; every other control character is corruption.
_LAYOUT = frozenset("\t\n\r")
# An empty box reads as itself (nothing was extracted from it): its command is no answer.
_EMPTY_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{\s*\}")


def reference_problem(reference: str, final: str) -> str | None:
    """Why ``reference`` (whose final answer is ``final``) cannot judge an answer; None
    when it can."""
    if not reference:
        return "is empty"
    if not reference.strip():
        return "is only whitespace"
    control = next(
        (c for c in reference if unicodedata.category(c) == "Cc" and c not in _LAYOUT), None
    )
    if control is not None:
        return f"holds a control character (U+{ord(control):04X})"
    if not _bears_an_answer(_EMPTY_BOX.sub("", normalize_answer(final))):
        return (
            f"holds no answer: its final answer {final!r} has no letter, digit or "
            "mathematical symbol"
        )
    return None


def _bears_an_answer(text: str) -> bool:
    return any(c.isalnum() or unicodedata.category(c) == "Sm" for c in text)
