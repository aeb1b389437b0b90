"""Find the final answer in a model completion.

Order of precedence (first that yields an answer wins):
1. ``<answer>…</answer>`` (the last one); a ``\\boxed{}`` inside it wins over its raw text,
2. the last ``\\boxed{}`` / ``\\fbox{}`` anywhere,
3. GSM8K's ``#### x``,
4. "the (final) answer is x",
5. the whole completion, when it is short and looks like a bare answer (the ``/grade`` case).

Every scan is linear in the completion's length: completions can be megabytes long and
regexes with nested quantifiers would let one hostile completion stall a worker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class ExtractionMethod(StrEnum):
    ANSWER_TAG = "answer_tag"
    BOXED = "boxed"
    GSM8K = "gsm8k"
    ANSWER_IS = "answer_is"
    BARE = "bare"
    NONE = "none"


@dataclass(frozen=True)
class Extraction:
    answer: str | None
    method: ExtractionMethod


# Longest completion that may be taken as a bare answer ("42", "\frac{3}{4}").
BARE_ANSWER_MAX_CHARS = 80

_BRACE_TOKENS = re.compile(r"\\.|[{}]", re.DOTALL)
_MAX_BRACE_TOKENS = 100_000
_MAX_BRACE_DEPTH = 200
# How many malformed boxes to skip, from the end, before giving up.
_MAX_BOX_CANDIDATES = 16

_BOX_COMMANDS = ("\\boxed", "\\fbox")
_GSM8K = re.compile(r"####[ \t]*([^\n]+)")
# Only the marker is matched, so that in "Final Answer: The final answer is 8" both markers
# are found and the last one wins.
_ANSWER_IS = re.compile(r"(?:final\s+answer|answer)[ \t]*(?:is|:|=)[ \t]*:?[ \t]*", re.IGNORECASE)
_ANSWER_IS_MAX_CHARS = 400
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_MATH_DELIMITERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
_TRAILING_JUNK = " \t\n.。;,"


def _matching_brace(text: str, open_index: int) -> int | None:
    """Index of the brace closing the one at ``open_index`` (skipping ``\\{`` escapes).

    Only braces and escapes are visited (the regex skips everything else in C), so even a
    multi-megabyte box is matched quickly; a box with absurd nesting or brace counts is
    treated as unclosed, which keeps a hostile completion from costing more than a few ms.
    """
    depth = 0
    for count, token in enumerate(_BRACE_TOKENS.finditer(text, open_index)):
        if count > _MAX_BRACE_TOKENS:
            return None
        kind = token.group()
        if kind == "{":
            depth += 1
            if depth > _MAX_BRACE_DEPTH:
                return None
        elif kind == "}":
            depth -= 1
            if depth == 0:
                return token.start()
    return None


def extract_boxed_answer(text: str) -> str | None:
    """Content of the last ``\\boxed{…}`` or ``\\fbox{…}`` (nested braces allowed).

    ``\\boxed 5`` (a single token without braces) is accepted too. An unclosed box gives
    None rather than the rest of the text.
    """
    starts = [(text.rfind(cmd), cmd) for cmd in _BOX_COMMANDS]
    for _ in range(_MAX_BOX_CANDIDATES):
        index, cmd = max(starts)
        if index < 0:
            return None
        after = index + len(cmd)
        rest = text[after:]
        stripped = rest.lstrip()
        if stripped.startswith("{"):
            open_index = after + (len(rest) - len(stripped))
            close = _matching_brace(text, open_index)
            if close is not None:
                return text[open_index + 1 : close].strip()
        elif rest[:1] in (" ", "\t") and stripped:
            token = stripped.split(maxsplit=1)[0].rstrip("$.")
            if token:
                return token
        # Not a usable box: look for an earlier one of the same command.
        starts = [(text.rfind(c, 0, index) if c == cmd else i, c) for i, c in starts]
    return None


def _clean(answer: str) -> str | None:
    answer = answer.strip().rstrip(_TRAILING_JUNK).strip()
    for opening, closing in _MATH_DELIMITERS:
        if answer.startswith(opening) and answer.endswith(closing) and len(answer) > 2:
            answer = answer[len(opening) : len(answer) - len(closing)].strip()
    answer = answer.rstrip(_TRAILING_JUNK).strip()
    if not answer:
        return None
    return answer


def extract_answer_tag(text: str) -> str | None:
    """Content of the last complete ``<answer>…</answer>`` pair (case-insensitive)."""
    lowered = text.lower()
    close = lowered.rfind("</answer>")
    if close < 0:
        return None
    open_ = lowered.rfind("<answer>", 0, close)
    if open_ < 0:
        return None
    return text[open_ + len("<answer>") : close]


def _from_answer_is(text: str) -> str | None:
    last = None
    for last in _ANSWER_IS.finditer(text):  # noqa: B007  (we want the last match)
        pass
    if last is None:
        return None
    end = text.find("\n", last.end(), last.end() + _ANSWER_IS_MAX_CHARS)
    candidate = text[last.end() : end if end >= 0 else last.end() + _ANSWER_IS_MAX_CHARS]
    boxed = extract_boxed_answer(candidate)
    if boxed is not None:
        return boxed
    # "The answer is $x=3$." -> x=3 ; "The answer is 7. Next we..." -> 7
    if candidate.lstrip().startswith("$"):
        inner = candidate.lstrip().lstrip("$")
        closing = _UNESCAPED_DOLLAR.search(inner)
        if closing is not None and closing.start() > 0:
            return inner[: closing.start()]
    sentence_end = re.search(r"\.(\s|$)", candidate)
    if sentence_end is not None:
        candidate = candidate[: sentence_end.start()]
    return candidate


def _looks_like_bare_answer(text: str) -> bool:
    if len(text) > BARE_ANSWER_MAX_CHARS or "\n" in text:
        return False
    # Prose is not an answer; a short formula, a number or a single word is.
    words = text.split()
    if len(words) == 1:
        return True
    mathy = any(ch.isdigit() or ch in "\\=^{}()[]+-*/" for ch in text)
    return mathy and len(words) <= 6


def _from_answer_tag(text: str) -> str | None:
    inner = extract_answer_tag(text)
    if inner is None:
        return None
    boxed = extract_boxed_answer(inner)
    return boxed if boxed is not None else inner


def _from_gsm8k(text: str) -> str | None:
    last = None
    for last in _GSM8K.finditer(text):  # noqa: B007  (we want the last match)
        pass
    return last.group(1) if last is not None else None


def _bare(text: str) -> str | None:
    stripped = text.strip()
    # A completion that tried to box an answer and failed (unclosed or empty box) has no
    # answer; it is not itself a bare answer.
    if any(cmd in text for cmd in _BOX_COMMANDS) or not _looks_like_bare_answer(stripped):
        return None
    return stripped


_FINDERS = (
    (ExtractionMethod.ANSWER_TAG, _from_answer_tag),
    (ExtractionMethod.BOXED, extract_boxed_answer),
    (ExtractionMethod.GSM8K, _from_gsm8k),
    (ExtractionMethod.ANSWER_IS, _from_answer_is),
    (ExtractionMethod.BARE, _bare),
)


def extract_answer(completion: str, *, allow_bare: bool = True) -> Extraction:
    """The final answer of ``completion`` and how it was found (see the module docstring)."""
    for method, find in _FINDERS:
        if method is ExtractionMethod.BARE and not allow_bare:
            continue
        found = find(completion)
        answer = _clean(found) if found is not None else None
        if answer is not None:
            return Extraction(answer, method)
    return Extraction(None, ExtractionMethod.NONE)


def reference_answer(reference: str) -> str:
    """The reference's final answer: datasets store '#### 42', '\\boxed{5}' or just '5'."""
    extracted = extract_answer(reference).answer
    return extracted if extracted is not None else reference.strip()
