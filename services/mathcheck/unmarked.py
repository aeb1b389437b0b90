"""An answer a completion gives without a final-answer marker.

"So the total is 42 apples", "Two and two make four": no box, no tag, no "the answer is",
yet an answer. Under the ``boxed`` and ``marked`` policies the rule finds none, and a
completion must never be better off for that than for marking it (docs/integrity.md,
"Committing never costs"): so the unmarked answer is still found, judged, and shown to the
LLM verifier where a mode asks it. Its candidates, in order: the lenient extraction of the
text (math-verify's reading: the last math span, a number after it, the last number, a
short phrase), the last number written in digits (with its unit), and the last number
written in words ("four", "twenty-one", "negative three", "two thirds"). Which of them
bears an answer, :mod:`services.verifier.answer_bearing` decides.

Every scan is linear in the text's length.
"""

from __future__ import annotations

import re

from services.mathcheck.extraction import ExtractionPolicy, extract_answer, last_number
from services.mathcheck.number_words import number_in_words

_CARDINAL = (
    r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
    r"|eighty|ninety|hundred|thousand|million|billion|trillion|dozen"
)
_FRACTION_WORD = (
    r"halves|half|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?"
)
# A number in words: cardinals joined by spaces, hyphens or "and" ("one hundred and
# twelve"), maybe signed ("negative three") or a fraction ("two thirds"). Ordinals other
# than a fraction's denominator are left out: "first" and "second" order the working.
_NUMBER_IN_WORDS = re.compile(
    rf"\b(?:(?:negative|minus)\s+)?(?:{_CARDINAL})(?:(?:\s+and\s+|[\s-]+)(?:{_CARDINAL}))*"
    rf"(?:\s+(?:{_FRACTION_WORD}))?\b",
    re.IGNORECASE,
)
_SCAN_CHARS = 20_000  # only the end of a long text is searched for a number in words


def last_number_in_words(text: str) -> str | None:
    """The last number written in words in ``text``, as written ("four"). A lone "one" is
    left out: in prose it is mostly a determiner ("one step at a time", "no one")."""
    tail = text[-_SCAN_CHARS:]
    for found in reversed(list(_NUMBER_IN_WORDS.finditer(tail))):
        words = found.group().lower()
        if words != "one" and number_in_words(words) is not None:
            return found.group()
    return None


def unmarked_candidates(text: str) -> list[str]:
    """The answers ``text`` may give without a marker, most specific first: its lenient
    extraction, its last number, its last number in words (each once)."""
    found = (
        extract_answer(text, ExtractionPolicy.LENIENT).answer,
        last_number(text),
        last_number_in_words(text),
    )
    return list(dict.fromkeys(answer for answer in found if answer is not None))


__all__ = ["last_number_in_words", "unmarked_candidates"]
