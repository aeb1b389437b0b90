"""Find the final answer in a model completion, under one of three policies.

* ``boxed``: only the last ``\\boxed{}`` / ``\\fbox{}`` counts (seed 001's training rule).
* ``marked`` (the ``/score`` default): the last ``<answer>…</answer>`` (a box inside it wins
  over its raw text), else the last box, else GSM8K's ``#### x``, else "the (final) answer
  is x"; a completion that is nothing but a short answer ("42") is taken as it is.
* ``lenient`` (math-verify's behaviour, the ``/grade`` default): as ``marked``, but boxes
  written one after another (``\\boxed{1}, \\boxed{2}``) are joined into one list answer,
  and without a marker the last math expression (``$…$``, ``\\(…\\)``, ``\\[…\\]``,
  ``$$…$$``, joined with neighbours linked by "," / "and" / "or"), a completion that is
  only an answer, or finally the last number is the answer (with a unit of a known kind
  written after it: "60 miles per hour", "12 square centimeters"). A response cut off
  mid-way (it ends inside a math span, after an operator or a relation, or after a word
  no sentence ends with: "so the number of red marbles is") has no unmarked answer.

Every scan is linear in the completion's length: completions can be megabytes long and
regexes with nested quantifiers would let one hostile completion stall a worker.

**The reasoning-block rule** (``committed``): only the text a completion commits to after
its reasoning counts. Reasoning models think inside a block (``<think>…</think>``,
``<reasoning>…</reasoning>``, ``<thinking>``, ``<thought>``,
``<|begin_of_thought|>…<|end_of_thought|>``) and then answer. An answer written inside the
block is a draft: crediting it lets a policy hedge there, or get paid for a completion cut
off mid-thought. So where a completion has such a block, only the text after the last
closing tag is searched for the answer, whatever the extraction policy; a block still open
at the end (a truncated completion, or a new block opened after the last one closed) leaves
no answer at all.

A closing tag with no opening tag counts as a closed block: chat templates (DeepSeek-R1,
Qwen3) put the opening ``<think>`` into the prompt, so the completion starts inside it.
Tag names are matched in any case and with stray spaces (``</ THINK >``); a closing tag
spelled some other way is not recognised, so the block stays open and nothing is credited.

**An answer given without a final-answer marker** (``unmarked_candidates``). "So the total
is 42 apples", "Two and two make four": no box, no tag, no "the answer is", yet an answer.
Under the ``boxed`` and ``marked`` policies the rule finds none, and a completion must
never be better off for that than for marking it (docs/integrity.md, "Committing never
costs"): so the unmarked answer is still found, judged, and shown to the LLM verifier where
a mode asks it. Its candidates, in order: the lenient extraction of the text (math-verify's
reading: the last math span, a number after it, the last number, a short phrase), the last
number written in digits (with its unit), and the last number written in words ("four",
"twenty-one", "negative three", "two thirds"). Which of them bears an answer,
:mod:`services.verifier.answer_bearing` decides."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from services.domain import ExtractionPolicy as ExtractionPolicy
from services.mathcheck.alignment import math_from_phrase
from services.mathcheck.vocabulary import POWER_WORD, TEXT_FONT, UNIT_NAME
from services.mathcheck.written_numbers import number_in_words


class ExtractionMethod(StrEnum):
    ANSWER_TAG = "answer_tag"
    BOXED = "boxed"
    GSM8K = "gsm8k"
    ANSWER_IS = "answer_is"
    BARE = "bare"
    LAST_MATH = "last_math"
    LAST_NUMBER = "last_number"
    NONE = "none"


_MARKERS = frozenset(
    {
        ExtractionMethod.ANSWER_TAG,
        ExtractionMethod.BOXED,
        ExtractionMethod.GSM8K,
        ExtractionMethod.ANSWER_IS,
    }
)


@dataclass(frozen=True)
class Extraction:
    answer: str | None
    method: ExtractionMethod

    @property
    def marked(self) -> bool:
        """Whether the answer was marked as final (box, tag, ``####``, "the answer is", an
        answer heading)."""
        return self.method in _MARKERS


_BRACE_TOKENS = re.compile(r"\\.|[{}]", re.DOTALL)
_MAX_BRACE_TOKENS = 100_000
_MAX_BRACE_DEPTH = 200
# How many malformed boxes to skip, from the end, before giving up.
_MAX_BOX_CANDIDATES = 16

_BOX_COMMANDS = ("\\boxed", "\\fbox")
_GSM8K = re.compile(r"####[ \t]*([^\n]+)")
# Only the marker is matched, so that in "Final Answer: The final answer is 8" both markers
# are found and the last one wins.
_ANSWER_IS = re.compile(
    r"(?:(?:final\s+answer|answer|correct\s+(?:choice|option))[ \t]*(?:is|:|=)"
    r"|(?:最终)?答案[ \t]*(?:是|为|:|：))[ \t]*:?[ \t]*",  # "the answer is"
    re.IGNORECASE,
)
_ANSWER_IS_MAX_CHARS = 400
# "## Answer", "**Final Answer:**", "Answer:" on a line of its own, as Markdown writes a
# heading: the answer is what follows it (``_under_heading``).
_ANSWER_HEADING = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*(?:final[ \t]+)?answer[ \t]*(?:\*\*|__)?"
    r"[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*\n",
    re.IGNORECASE | re.MULTILINE,
)
_DISPLAYS = (("\\[", "\\]"), ("$$", "$$"))
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_MATH_DELIMITERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
_TRAILING_JUNK = " \t\n.。;,"
_LEADING_JUNK = " \t\n*:"


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


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    content: str


def _box_before(text: str, limit: int) -> _Span | None:
    """The last usable ``\\boxed{…}`` / ``\\fbox{…}`` starting before ``limit``."""
    starts = [(text.rfind(cmd, 0, limit), cmd) for cmd in _BOX_COMMANDS]
    for _ in range(_MAX_BOX_CANDIDATES):
        index, cmd = max(starts)
        if index < 0:
            return None
        after = index + len(cmd)
        rest = text[after : after + _MAX_BARE_BOX_LOOKAHEAD]
        stripped = rest.lstrip()
        # "\\boxed{…}" (a doubled backslash, as in JSON-escaped text) starts one earlier.
        start = index - 1 if index > 0 and text[index - 1] == "\\" else index
        if stripped.startswith("{"):
            open_index = after + (len(rest) - len(stripped))
            close = _matching_brace(text, open_index)
            if close is not None:
                return _Span(start, close + 1, text[open_index + 1 : close].strip())
        elif rest[:1] in (" ", "\t") and stripped:
            token = stripped.split(maxsplit=1)[0].rstrip("$.")
            if token:
                end = after + (len(rest) - len(stripped)) + len(token)
                return _Span(start, end, token)
        # Not a usable box: look for an earlier one of the same command.
        starts = [(text.rfind(c, 0, index) if c == cmd else i, c) for i, c in starts]
    return None


_MAX_BARE_BOX_LOOKAHEAD = 200


def extract_boxed_answer(text: str) -> str | None:
    """Content of the last ``\\boxed{…}`` or ``\\fbox{…}`` (nested braces allowed).

    ``\\boxed 5`` (a single token without braces) is accepted too. An unclosed box gives
    None rather than the rest of the text.
    """
    span = _box_before(text, len(text))
    return span.content if span is not None else None


# What may stand between boxes (or math spans) that together write one answer:
# "\boxed{1}, \boxed{2} and \boxed{3}", "$x=1$ or $x=2$", "\boxed{a} \quad \text{and} \quad",
# "$7$ or maybe $8$" (a hedge).
# Across a math delimiter a connective (a comma, a semicolon, "and", "or") must be among it:
# "$$\boxed{20}$$ \boxed{143}" is a box rejected and the answer after it, as math-verify
# reads it, while "$\boxed{1}\boxed{2}$" is one answer.
# A word may stand right before the connective, the thing the box before it counts
# ("\boxed{1} papers and \boxed{2} bins"), and a name with its index before the box after
# it ("y_1 = \boxed{…} and y_2 = \boxed{…}").
_JOINER = re.compile(
    r"(?:\s|[,;&$]|\\quad|\\qquad|\\[,;:! ]|\\\\|\\\[|\\\]|\\\(|\\\)"
    r"|\\text\s*\{\s*(?:and|or|,)?\s*\}|\band\b|\bor\b|\b(?:maybe|possibly|perhaps)\b"
    r"|\b[a-zA-Z](?:_\{?\w+\}?)?\s*="
    r"|\b[a-zA-Z]{2,}(?=\s+(?:and|or)\b))*",
    re.IGNORECASE,
)
# The name a box gives its value: "y_1 = \boxed{…}".
_NAME_BEFORE = re.compile(r"(?:^|[^\\\w])([a-zA-Z](?:_\{?\w+\}?)?)\s*=\s*$")
_MAX_JOINER_CHARS = 60
_MAX_JOINED = 12


_CONNECTIVE = re.compile(r"(?<!\\)[,;]|\band\b|\bor\b", re.IGNORECASE)
_DELIMITER = re.compile(r"\$|\\[\[\]()]")


def _joins(gap: str) -> bool:
    return (
        len(gap) <= _MAX_JOINER_CHARS
        and _JOINER.fullmatch(gap) is not None
        and (_DELIMITER.search(gap) is None or _CONNECTIVE.search(gap) is not None)
    )


def _linked_in_one_span(text: str, first: _Span, second: _Span, spans: list[_Span]) -> bool:
    """Two boxes in one math span with a connective between them, whatever else is there:
    "$$\\boxed{(3, 3)} \\text{ for part (a) and } \\boxed{(1, 1)}$$" is one answer."""
    gap = text[first.end : second.start]
    return (
        len(gap) <= _MAX_JOINER_CHARS
        and _DELIMITER.search(gap) is None
        and _CONNECTIVE.search(gap) is not None
        and any(span.start <= first.start and second.end <= span.end for span in spans)
    )


def _last_boxes(text: str) -> str | None:
    """The last box, joined with the boxes written right before it as one list answer."""
    last = _box_before(text, len(text))
    if last is None:
        return None
    contents = [last.content]
    boxes = [last]
    current = last
    spans: list[_Span] | None = None  # found only when a gap needs them
    while len(contents) < _MAX_JOINED:
        previous = _box_before(text, current.start)
        if previous is None:
            break
        if not _joins(text[previous.end : current.start]):
            spans = _math_spans(text) if spans is None else spans
            if not _linked_in_one_span(text, previous, current, spans):
                break
        contents.append(previous.content)
        boxes.append(previous)
        current = previous
    named = _named(text, boxes[::-1])
    if named is not None:
        return named
    parts = [part for part in reversed(contents) if part]
    if len(set(parts)) == 1:  # the same answer boxed twice is one answer, not a list
        parts = parts[:1]
    return ", ".join(parts) if parts else None


def _named(text: str, boxes: list[_Span]) -> str | None:
    """Boxes that each give a value a name of its own: "y_1 = \\boxed{a} and y_2 =
    \\boxed{b}" is "y_1 = a, y_2 = b" (one name for all, "x = \\boxed{1} or x = \\boxed{2}",
    is a list of roots, left to the list)."""
    if len(boxes) < 2:
        return None
    names = []
    for box in boxes:
        name = _NAME_BEFORE.search(text, max(0, box.start - 20), box.start)
        if name is None or not box.content:
            return None
        names.append(name.group(1))
    if len(set(names)) != len(names):
        return None
    return ", ".join(f"{name} = {box.content}" for name, box in zip(names, boxes, strict=True))


# "1, 2, 3, ..." lists a sequence that goes on: its dots are not a full stop.
_OPEN_ENDED = re.compile(r",\s*(?:\.\.\.|…|\\[lc]?dots)(?=\s*\.?\s*$)")


def _trimmed(answer: str) -> str:
    """Trailing punctuation off the answer, but not the dots of a sequence that goes on:
    "1, 2, 3, ...." is "1, 2, 3, ..."."""
    goes_on = _OPEN_ENDED.search(answer)
    if goes_on is not None and answer[: goes_on.start()].strip(_TRAILING_JUNK):
        return answer[: goes_on.end()].strip()
    repeating = _repeating_decimal(answer)
    return repeating if repeating is not None else answer.rstrip(_TRAILING_JUNK).strip()


def _repeating_decimal(answer: str) -> str | None:
    """ "0.999..." as it is: the dots after a decimal's digits say that they repeat."""
    stripped = answer.strip()
    if stripped.endswith("...."):
        stripped = stripped[:-1]
    for ellipsis in ("...", "…"):
        if stripped.endswith(ellipsis):
            number = stripped[: -len(ellipsis)].rsplit(None, 1)[-1:] or [""]
            whole, point, digits = number[0].lstrip("+-−").partition(".")
            if point and digits.isdigit() and (not whole or whole.isdigit()):
                return stripped
    return None


def _clean(answer: str) -> str | None:
    # "**Answer:** 10" leaves "** 10"; Markdown emphasis is never part of an answer.
    answer = _trimmed(answer.strip().lstrip(_LEADING_JUNK)).rstrip("*").strip()
    for opening, closing in _MATH_DELIMITERS:
        if answer.startswith(opening) and answer.endswith(closing) and len(answer) > 2:
            answer = answer[len(opening) : len(answer) - len(closing)].strip()
    return _trimmed(answer) or None


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


# Inline and display math: "$…$", "$$…$$", "\(…\)", "\[…\]" (an escaped "\$" is text).
_MATH_TOKEN = re.compile(r"\\\$|\$\$|\$|\\\(|\\\)|\\\[|\\\]")
_MATH_CLOSERS = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}
_MAX_MATH_TOKENS = 200_000


def _math_spans(text: str) -> list[_Span]:
    """Every complete math span, in order (one left-to-right pass)."""
    spans: list[_Span] = []
    opener: tuple[str, int, int] | None = None
    for count, token in enumerate(_MATH_TOKEN.finditer(text)):
        if count > _MAX_MATH_TOKENS:
            break
        kind = token.group()
        if kind == "\\$":
            continue
        if opener is None:
            if kind in _MATH_CLOSERS:
                opener = (kind, token.start(), token.end())
            continue
        if kind == _MATH_CLOSERS[opener[0]]:
            content = text[opener[2] : token.start()].strip()
            if content:
                spans.append(_Span(opener[1], token.end(), content))
            opener = None
        elif opener[0] == "$" and kind == "$$":
            # "$x$$y$" style collisions: treat "$$" as closing the inline span.
            content = text[opener[2] : token.start()].strip()
            if content:
                spans.append(_Span(opener[1], token.end(), content))
            opener = None
    return spans


def _last_math(text: str) -> str | None:
    """The last math span, joined with the spans linked to it by ",", "and" or "or"."""
    spans = _math_spans(text)
    if not spans:
        return None
    return ", ".join(span.content for span in reversed(_joined_run(text, spans[::-1])))


def _joined_run(text: str, spans: list[_Span]) -> list[_Span]:
    """``spans[0]`` and the spans after it in the list, each joined to the one before it
    (``_joins``), at most ``_MAX_JOINED``; the list may run backwards through the text."""
    run = [spans[0]]
    for span in spans[1:]:
        first, second = sorted((run[-1], span), key=lambda each: each.start)
        if len(run) >= _MAX_JOINED or not _joins(text[first.end : second.start]):
            break
        run.append(span)
    return run


# Words of prose (not LaTeX commands, not the connectives of a list of answers).
_PROSE_WORD = re.compile(r"(?<![\\a-zA-Z])[a-zA-Z]{2,}")
_CONNECTIVES = frozenset({"and", "or", "text", "mathrm", "mbox", "textbf"})
_MAX_ANSWER_WORDS = 2
# Several words are an answer only beside some mathematics ("no answer" is not one).
_MATHY = re.compile(r"[\d\\=^{}()\[\]+\-*/<>]")


_ENVIRONMENT = re.compile(r"\\(?:begin|end)\s*\{[a-zA-Z*]*\}(?:\s*\{[lcr|]*\})?")


def _prose_words(text: str) -> int:
    words = _PROSE_WORD.findall(_ENVIRONMENT.sub(" ", text[:2000]))
    return sum(1 for word in words if word.lower() not in _CONNECTIVES)


# "The largest $n$ is 34": the value follows the last " is ".
_IS = re.compile(r"\s(?:is|are|equals|=)\s", re.IGNORECASE)
_SENTENCE_END = re.compile(r"\.(?:\s|$)")


def _from_answer_is(text: str) -> str | None:
    last = None
    for last in _ANSWER_IS.finditer(text):  # noqa: B007  (we want the last match)
        pass
    heading = None
    for heading in _ANSWER_HEADING.finditer(text):  # noqa: B007  (we want the last match)
        pass
    if heading is not None and (last is None or heading.end() > last.end()):
        return _answer_said(_under_heading(text, heading.end()))
    if last is None:
        return None
    end = text.find("\n", last.end(), last.end() + _ANSWER_IS_MAX_CHARS)
    return _answer_said(text[last.end() : end if end >= 0 else last.end() + _ANSWER_IS_MAX_CHARS])


def _under_heading(text: str, start: int) -> str:
    """What an answer heading heads: its first line that is not blank, or a display of
    several lines (``\\[ … \\]``, ``$$ … $$``) whole."""
    while start < len(text) and text[start] in " \t\n":
        start += 1
    window = text[start : start + _ANSWER_IS_MAX_CHARS]
    for opening, closing in _DISPLAYS:
        if window.startswith(opening):
            end = window.find(closing, len(opening))
            if end >= 0:
                return window[: end + len(closing)]
    end = window.find("\n")
    return window if end < 0 else window[:end]


def _answer_said(candidate: str) -> str | None:
    """The answer a marker's text says: a box in it, math right after the marker, or the
    sentence, shortened to its value when it is prose."""
    boxed = _last_boxes(candidate)
    if boxed is not None:
        return boxed
    # "The answer is $x=3$." -> x=3 ; "The answer is 7. Next we..." -> 7
    if candidate.lstrip().startswith("$"):
        listed = _spans_listed_first(candidate)
        if listed is not None:
            return listed
        inner = candidate.lstrip().lstrip("$")
        closing = _UNESCAPED_DOLLAR.search(inner)
        if closing is not None and closing.start() > 0:
            return inner[: closing.start()]
    sentence_end = _SENTENCE_END.search(candidate)
    if sentence_end is not None:
        candidate = candidate[: sentence_end.start()]
    if _prose_words(candidate) > _MAX_ANSWER_WORDS:
        # "Final Answer: The largest $n$ is 34." -> 34
        tail = None
        for tail in _IS.finditer(candidate):  # noqa: B007  (we want the last match)
            pass
        if tail is not None:
            return candidate[tail.end() :]
        math = _last_math(candidate)
        if math is not None:
            return math
        # "Final Answer: Jane started 3 hours ago." -> 3, when it is the sentence's one number.
        numbers = list(_NUMBER.finditer(candidate))
        if len(numbers) == 1:
            return _with_unit(candidate, numbers[0])
    return candidate


def _spans_listed_first(candidate: str) -> str | None:
    """The math spans a marker's sentence lists first, joined as boxes and the last math
    are (``_joins``): "The answer is $7$ or $8$." is the list "7, 8", a hedge, not 7. The
    list must end the sentence ("The answer is $12$, and $12 = 3 \\cdot 4$ checks." answers
    12); None where it lists one span or none."""
    spans = _math_spans(candidate)
    if len(spans) < 2 or candidate[: spans[0].start].strip():
        return None
    listed = _joined_run(candidate, spans)
    after = candidate[listed[-1].end :]
    sentence_end = _SENTENCE_END.search(after)
    rest = after[: sentence_end.start()] if sentence_end is not None else after
    if len(listed) < 2 or rest.strip(_TRAILING_JUNK):
        return None
    contents = list(dict.fromkeys(span.content for span in listed))
    return ", ".join(contents)


def _from_answer_tag(text: str) -> str | None:
    inner = extract_answer_tag(text)
    if inner is None:
        return None
    boxed = extract_boxed_answer(inner)
    return boxed if boxed is not None else inner


def _from_answer_tag_lenient(text: str) -> str | None:
    inner = extract_answer_tag(text)
    if inner is None:
        return None
    for _, find in _LENIENT_INSIDE_TAG:
        found = find(inner)
        if found is not None and _clean(found) is not None:
            return found
    return inner


def _from_gsm8k(text: str) -> str | None:
    """The ``#### x`` answer. Several differing ones are a hedge: they are returned as one
    list answer ("#### 41 … #### 42" is "41, 42"), which a single reference never equals."""
    answers = list(dict.fromkeys(m.group(1).strip() for m in _GSM8K.finditer(text)))
    return ", ".join(answers[-_MAX_JOINED:]) if answers else None


# Saying there is no answer is no answer, under every policy.
_REFUSAL = re.compile(
    r"^(?:\\text\s*\{\s*)?(?:no\s+answer|i\s+(?:do\s*n[o']?t|dont|cannot|can'?t)\b|not\s+sure|unsure|unknown"
    r"|n/?a$|none\s+of\b)",
    re.IGNORECASE,
)
# A bare answer may be a long list or matrix, but not a sentence.
BARE_ANSWER_MAX_CHARS = 1000


def _bare(text: str) -> str | None:
    """The whole completion, when it is nothing but an answer ("42", "x = 3 or x = -2")."""
    stripped = text.strip()
    # A completion that tried to box an answer and failed (unclosed or empty box) has no
    # answer; it is not itself a bare answer.
    if (
        len(stripped) > BARE_ANSWER_MAX_CHARS
        or any(cmd in text for cmd in _BOX_COMMANDS)
        or _prose_words(stripped) > _MAX_ANSWER_WORDS
        or (_prose_words(stripped) > 1 and not _MATHY.search(stripped))
        or len(_UNESCAPED_DOLLAR.findall(stripped)) % 2 == 1
        or _REFUSAL.match(stripped)
    ):
        return None
    return stripped


# A short phrase is an answer ("no real solutions", "isosceles right triangle"); a
# sentence ("I give up on this one.", "we cannot tell") is not.
_MAX_WORDED_CHARS = 60
_MAX_WORDED_WORDS = 6
_SENTENCE = re.compile(r"[.!?]|\b(?:i|we|you|me|us|my|our|let'?s)\b", re.IGNORECASE)


def _worded(text: str) -> str | None:
    """A completion that is only a short phrase (lenient): "all real numbers"."""
    stripped = text.strip()
    if (
        len(stripped) > _MAX_WORDED_CHARS
        or "\n" in stripped
        or len(stripped.split()) > _MAX_WORDED_WORDS
        or _SENTENCE.search(stripped)
        or _REFUSAL.match(stripped)
    ):
        return None
    return stripped


# A number in prose, maybe with its power ("2^5"), or a fraction written in LaTeX (whose
# digits are not numbers apart); an exponent is no number of its own ("9 cm^2" answers 9).
_NUMBER = re.compile(
    r"-?\\[dt]?frac\s*\{\s*\d+\s*\}\s*\{\s*\d+\s*\}"
    r"|(?<![\w.^])(?<!\^\{)-?\d+(?:[.,]\d+)*(?:\^\{?-?\d+\}?)?(?:\s*/\s*\d+)?(?:\s*%)?"
)


# A unit of a known kind after a number in prose is part of the answer: "60 miles per hour",
# "12 square centimeters", "36 km/h", "1 \\text{ mile per minute}" (a rate scored on its
# number alone would make 60 mph equal to 60 km/h). "in" is a preposition before an inch.
_UNIT = rf"(?:(?:{POWER_WORD})\s*)?(?!in\b)(?:{UNIT_NAME})\b(?:\s*\^\s*\{{?\s*[23]\s*\}}?)?"
_RATE = rf"{_UNIT}(?:\s*(?:/|\bper\b)\s*{_UNIT})?"
_UNIT_AFTER = re.compile(rf"\s*(?:{_RATE}|\\(?:{TEXT_FONT})\s*\{{\s*{_RATE}\s*\}})", re.IGNORECASE)


def _with_unit(text: str, number: re.Match[str]) -> str:
    """The number found in ``text`` with the unit of a known kind that follows it, if any."""
    unit = _UNIT_AFTER.match(text, number.end())
    return number.group() + (unit.group() if unit is not None else "")


def _last_number(text: str) -> str | None:
    last = None
    for last in _NUMBER.finditer(text):  # noqa: B007  (we want the last match)
        pass
    return _with_unit(text, last) if last is not None else None


def last_number(text: str) -> str | None:
    """The last number written in ``text``, with the unit of a known kind after it (the
    lenient policy's last resort)."""
    return _clean(found) if (found := _last_number(text)) is not None else None


_FINAL_ANSWER = re.compile(r"final\s+answer", re.IGNORECASE)


def _boxes_unless_final_answer_after(text: str) -> str | None:
    """The last boxes, unless a "final answer" statement follows them.

    math-verify ranks a box and "the final answer is …" alike and takes the later one:
    "… \\boxed{255} … Final Answer: The final answer is $10,455$." answers 10,455.
    """
    last_box = _box_before(text, len(text))
    if last_box is None:
        return None
    final = None
    for final in _FINAL_ANSWER.finditer(text, last_box.end):  # noqa: B007  (the last match)
        pass
    if final is not None:
        stated = _from_answer_is(text[final.start() :])
        if stated is not None and _clean(stated) is not None:
            return None
    return _last_boxes(text)


def _last_math_or_number_after(text: str) -> str | None:
    """The last math span, or a number written in prose after it (the later one).

    math-verify ranks plain math and plain numbers alike and takes the rightmost: in
    "… $d = \\frac{90}{n}$ … so there are 12 sequences." the answer is 12.
    """
    spans = _math_spans(text)
    if not spans:
        return None
    number = _last_number(text[spans[-1].end :])
    return number if number is not None else _last_math(text)


def _phrase(text: str) -> str | None:
    """A completion that is one phrase of mathematics in words (lenient): "x is at least 5"."""
    stripped = text.strip()
    return stripped if math_from_phrase(stripped) != stripped else None


Finder = Callable[[str], str | None]

_LENIENT_INSIDE_TAG: tuple[tuple[ExtractionMethod, Finder], ...] = (
    (ExtractionMethod.BOXED, _last_boxes),
    (ExtractionMethod.ANSWER_IS, _from_answer_is),
    (ExtractionMethod.BARE, _bare),
    (ExtractionMethod.LAST_MATH, _last_math),
    (ExtractionMethod.BARE, _phrase),
    (ExtractionMethod.LAST_NUMBER, _last_number),
)

_POLICIES: dict[ExtractionPolicy, tuple[tuple[ExtractionMethod, Finder], ...]] = {
    # Boxes written together are one answer under every policy: "\boxed{41} or
    # \boxed{42}" is the list "41, 42" (a hedge), never its last box.
    ExtractionPolicy.BOXED: ((ExtractionMethod.BOXED, _last_boxes),),
    ExtractionPolicy.MARKED: (
        (ExtractionMethod.ANSWER_TAG, _from_answer_tag),
        (ExtractionMethod.BOXED, _last_boxes),
        (ExtractionMethod.GSM8K, _from_gsm8k),
        (ExtractionMethod.ANSWER_IS, _from_answer_is),
        (ExtractionMethod.BARE, _bare),
    ),
    ExtractionPolicy.LENIENT: (
        (ExtractionMethod.ANSWER_TAG, _from_answer_tag_lenient),
        (ExtractionMethod.BOXED, _boxes_unless_final_answer_after),
        (ExtractionMethod.GSM8K, _from_gsm8k),
        (ExtractionMethod.ANSWER_IS, _from_answer_is),
        (ExtractionMethod.LAST_MATH, _last_math_or_number_after),
        (ExtractionMethod.BARE, _bare),
        (ExtractionMethod.BARE, _phrase),
        (ExtractionMethod.LAST_NUMBER, _last_number),
        (ExtractionMethod.BARE, _worded),
    ),
}


# A response cut off mid-way (by a length limit) has no final answer: without a marker,
# none of its numbers is one. It is cut off when it ends inside a math span, after an
# operator, a relation or an opening, or after a word no sentence ends with; a response
# of a few words ("x = ") is an answer, not a cut-off one.
_CUT_AFTER = frozenset("=+-*/^_,({[&\\")
_CONTINUING_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "is",
        "are",
        "was",
        "were",
        "be",
        "which",
        "namely",
        "and",
        "or",
        "by",
        "with",
        "for",
        "as",
        "that",
        "then",
        "so",
        "we",
        "get",
        "gives",
        "giving",
        "getting",
        "obtain",
        "compute",
        "find",
        "have",
        "has",
        "its",
        "into",
        "than",
        "if",
        "because",
        "since",
        "where",
        "when",
        "from",
        "in",
        "at",
        "equals",
        "equal",
        "thus",
        "hence",
        "therefore",
    ]
)
_MIN_CUT_OFF_WORDS = 10
# A response that stops on a word no sentence ends with is cut off from this many words.
_MIN_CUT_OFF_SENTENCE_WORDS = 5


def _inside_math_at_end(text: str) -> bool:
    """Whether ``text`` ends inside a math span (``$``, ``$$``, ``\\(``, ``\\[``)."""
    opener: str | None = None
    for count, token in enumerate(_MATH_TOKEN.finditer(text)):
        if count > _MAX_MATH_TOKENS:
            return False
        kind = token.group()
        if kind == "\\$":
            continue
        if opener is None:
            opener = kind if kind in _MATH_CLOSERS else None
        elif kind == _MATH_CLOSERS[opener] or (opener == "$" and kind == "$$"):
            opener = None
    return opener is not None


def cut_off(completion: str) -> bool:
    """Whether a response of some length stops mid-way (see ``_CUT_AFTER``)."""
    stripped = completion.rstrip()
    if not stripped:
        return False
    words = _prose_words(stripped)
    last_word = stripped.rsplit(None, 1)[-1]
    if last_word.isalpha() and last_word.lower() in _CONTINUING_WORDS:
        # "3 * 4 = 12. So the answer is": a sentence that stops on such a word is cut
        # off however short the response.
        return words >= _MIN_CUT_OFF_SENTENCE_WORDS
    if words < _MIN_CUT_OFF_WORDS:
        return False
    if _inside_math_at_end(stripped):
        return True
    # The last character, or the last one inside a math span that closes the text.
    closed = stripped[:-2] if stripped.endswith(("\\]", "\\)")) else stripped.rstrip("$")
    return closed.rstrip()[-1:] in _CUT_AFTER or stripped[-1] in _CUT_AFTER


def extract_answer(
    completion: str, policy: ExtractionPolicy = ExtractionPolicy.MARKED
) -> Extraction:
    """The final answer of ``completion`` and how it was found (see the module docstring).
    A response cut off mid-way (``cut_off``) has none but a marked one."""
    for method, find in _POLICIES[policy]:
        found = find(completion)
        answer = _clean(found) if found is not None else None
        if answer is not None:
            if method not in _MARKERS and cut_off(completion):
                break
            return Extraction(answer, method)
    return Extraction(None, ExtractionMethod.NONE)


def reference_answer(reference: str) -> str:
    """The reference's final answer: datasets store '#### 42', '\\boxed{5}', '$5$' or '5'.

    References are read leniently (several boxes joined, the math of a sentence), but never
    reduced to their last number: a reference with no math in it is taken whole.
    """
    extraction = extract_answer(reference, ExtractionPolicy.LENIENT)
    if extraction.answer is None or extraction.method is ExtractionMethod.LAST_NUMBER:
        return reference.strip()
    return extraction.answer


_NAMES = r"think|thinking|reasoning|thought|reflection"
_OPEN = re.compile(rf"<\s*(?:{_NAMES})\s*>|<\|\s*begin_of_thought\s*\|>", re.IGNORECASE)
_CLOSE = re.compile(rf"<\s*/\s*(?:{_NAMES})\s*>|<\|\s*end_of_thought\s*\|>", re.IGNORECASE)


class ReasoningRule(StrEnum):
    """Which part of a completion the answer was searched in."""

    OFF = "off"  # the rule is turned off: the whole completion
    NO_BLOCK = "no_block"  # no reasoning block: the whole completion
    AFTER_BLOCK = "after_block"  # the text after the last closed block
    UNCLOSED = "unclosed"  # a block never closes: nothing (the no-answer reward)


@dataclass(frozen=True, slots=True)
class Committed:
    """Where a completion's committed text starts, and the rule that decided it."""

    rule: ReasoningRule
    start: int | None  # None: the completion commits to nothing (an unclosed block)

    def text(self, completion: str) -> str | None:
        """The text to search for the answer, or None when there is none."""
        return None if self.start is None else completion[self.start :]


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    last = None
    for last in pattern.finditer(text):  # noqa: B007  (we want the last match)
        pass
    return last


def committed(completion: str, enabled: bool = True) -> Committed:
    """Where the answer of ``completion`` may be searched (see the module docstring)."""
    if not enabled:
        return Committed(ReasoningRule.OFF, 0)
    close = _last(_CLOSE, completion)
    after = close.end() if close is not None else 0
    if _OPEN.search(completion, after) is not None:
        return Committed(ReasoningRule.UNCLOSED, None)
    if close is None:
        return Committed(ReasoningRule.NO_BLOCK, 0)
    return Committed(ReasoningRule.AFTER_BLOCK, after)


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
