"""Reasoning-format rewards: tag compliance and a penalty for a too-short thinking section.

Two layouts are recognised: ``<think>…</think><answer>…</answer>`` and
``<reasoning>…</reasoning><answer>…</answer>``. Parsing uses ``str.find`` only, so a
multi-megabyte completion costs linear time.
"""

from __future__ import annotations

from dataclasses import dataclass

_THINK_TAGS = (("<think>", "</think>"), ("<reasoning>", "</reasoning>"))
_ANSWER_OPEN, _ANSWER_CLOSE = "<answer>", "</answer>"

# Compliance scores: the exact layout, the right tags in order with stray text around them,
# and anything else.
STRICT, LOOSE, ABSENT = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class FormatScore:
    format: float  # 1.0 strict layout, 0.5 tags present in order with extra text, 0.0 otherwise
    thinking: float  # -1.0 when the thinking section is missing or shorter than required
    thinking_words: int


def _section(text: str, open_tag: str, close_tag: str, start: int = 0) -> tuple[int, int] | None:
    """(start, end) of the first ``open_tag…close_tag`` at or after ``start``, tags included."""
    begin = text.find(open_tag, start)
    if begin < 0:
        return None
    end = text.find(close_tag, begin + len(open_tag))
    if end < 0:
        return None
    return begin, end + len(close_tag)


def score_format(completion: str, min_thinking_words: int) -> FormatScore:
    text = completion.lower()
    best = ABSENT
    words = 0
    for open_tag, close_tag in _THINK_TAGS:
        think = _section(text, open_tag, close_tag)
        if think is None:
            continue
        words = len(completion[think[0] + len(open_tag) : think[1] - len(close_tag)].split())
        answer = _section(text, _ANSWER_OPEN, _ANSWER_CLOSE, think[1])
        if answer is None:
            continue
        strict = (
            not text[: think[0]].strip()
            and not text[think[1] : answer[0]].strip()
            and not text[answer[1] :].strip()
            and text.count(open_tag) == 1
            and text.count(_ANSWER_OPEN) == 1
        )
        best = STRICT if strict else LOOSE
        break
    thinking = -1.0 if words < min_thinking_words else 0.0
    return FormatScore(format=best, thinking=thinking, thinking_words=words)
