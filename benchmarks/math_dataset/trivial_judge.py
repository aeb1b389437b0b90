"""The "trivial judge": plain string / number comparison.

Used only to report how many correct answers need more than that to be recognised.
"""

from __future__ import annotations

import re

_WRAPPERS = re.compile(r"\\(?:text|mathrm|textbf|mbox|mathbf)\{([^{}]*)\}")


def _normalise(text: str) -> str:
    s = text.strip().rstrip(".")
    s = _WRAPPERS.sub(r"\1", s)
    for junk in ("\\$", "$", "\\left", "\\right", "\\!", "\\,", "\\;", "\\ ", "\\%", "%", " "):
        s = s.replace(junk, "")
    s = s.lower()
    s = re.sub(r"^(-?[\d.,]+)[a-z]+$", r"\1", s)  # a trailing unit word: "42muffins"
    m = re.fullmatch(r"\(([a-e])\)", s)
    return m.group(1) if m else s


def _as_number(text: str) -> float | None:
    s = _normalise(text).replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def trivially_equal(a: str, b: str) -> bool:
    """True when plain string normalisation or float parsing already matches."""
    if _normalise(a) == _normalise(b):
        return True
    x, y = _as_number(a), _as_number(b)
    return x is not None and x == y
