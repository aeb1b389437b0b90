"""The reasoning-block rule: only the text a completion commits to after its reasoning counts.

Reasoning models think inside a block (``<think>…</think>``, ``<reasoning>…</reasoning>``,
``<thinking>``, ``<thought>``, ``<|begin_of_thought|>…<|end_of_thought|>``) and then answer.
An answer written inside the block is a draft: crediting it lets a policy hedge there, or
get paid for a completion cut off mid-thought. So where a completion has such a block,
only the text after the last closing tag is searched for the answer, whatever the
extraction policy; a block still open at the end (a truncated completion, or a new block
opened after the last one closed) leaves no answer at all.

A closing tag with no opening tag counts as a closed block: chat templates (DeepSeek-R1,
Qwen3) put the opening ``<think>`` into the prompt, so the completion starts inside it.
Tag names are matched in any case and with stray spaces (``</ THINK >``); a closing tag
spelled some other way is not recognised, so the block stays open and nothing is credited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

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
