"""The typed comparison of two normalised answers, without the symbolic engine.

``quick_verdict`` reads each normalised string (``reading.read_normalized``) and compares
the two by the table of ``comparison.py``; the checker itself reads the answers as written
(``checker.py``). None when the table leaves the pair to the symbolic engine.
"""

from __future__ import annotations

from services.mathcheck.comparison import Method, Verdict, equal
from services.mathcheck.normalization import normalize_answer
from services.mathcheck.reading import read_normalized

# The verdict of a fast check; the name stays for the callers that use it.
QuickVerdict = Verdict


def quick_verdict(reference_norm: str, answer_norm: str) -> QuickVerdict | None:
    """Verdict from normalised strings when no symbolic work is needed, else None."""
    return equal(read_normalized(reference_norm), read_normalized(answer_norm))


__all__ = ["Method", "QuickVerdict", "normalize_answer", "quick_verdict"]
