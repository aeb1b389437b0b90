"""Find the program in a model completion.

Precedence: the last ``<answer>…</answer>`` (a fenced block inside it wins over its raw
text), then the last fenced block tagged with the item's language, then the last untagged
fenced block. A block tagged with another language is never taken: running a Python
answer as q (or the reverse) only produces misleading failures.

q completions may also be bare code (the Q paper's non-reasoning format, where the SFT
model answers with the program alone): with no fence and no format tags at all, the whole
completion is the program. Python keeps asking for a fence, since its models always write
one and a prose reply run as Python would only turn "no code" into a failed run.
"""

from __future__ import annotations

import re

from services.mathcheck.extraction import extract_answer_tag

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+#.-]*)[^\n]*\n(.*?)```", re.DOTALL)
# Any opened fence (closed or not) or reasoning/answer tag marks a formatted completion.
_FORMAT_MARK = re.compile(r"```|</?(?:answer|think|reasoning)\s*>", re.IGNORECASE)

LANGUAGE_TAGS = {
    "python": frozenset({"python", "py", "python3"}),
    "q": frozenset({"q", "kdb", "k", "kdb+", "qsql"}),
}
# Languages whose completions count as bare code when they carry no fence and no tags.
BARE_CODE_LANGUAGES = frozenset({"q"})


def _last_block(text: str, language: str) -> str | None:
    tagged = untagged = None
    for match in _FENCE.finditer(text):
        tag = match.group(1).lower()
        if tag in LANGUAGE_TAGS[language]:
            tagged = match.group(2)
        elif not tag:
            untagged = match.group(2)
    return tagged if tagged is not None else untagged


def _bare_code(completion: str, language: str) -> str | None:
    if language not in BARE_CODE_LANGUAGES or _FORMAT_MARK.search(completion):
        return None
    return completion


def extract_code(completion: str, language: str) -> str | None:
    """The program to run, or None when the completion holds no code for ``language``."""
    code: str | None
    tagged_answer = extract_answer_tag(completion)
    if tagged_answer is not None:
        block = _last_block(tagged_answer, language)
        code = block if block is not None else tagged_answer
    else:
        code = _last_block(completion, language)
        if code is None:
            code = _bare_code(completion, language)
    if code is None or not code.strip():
        return None
    return code.strip("\n")
