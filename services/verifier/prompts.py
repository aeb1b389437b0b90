"""Prompt text: the TinyV/rubric templates, wrapped in the model's chat format."""

from __future__ import annotations

import re
from dataclasses import dataclass

from services.domain import VerdictSource
from services.verifier.config import VerifierConfig
from services.verifier.types import RubricRequest, VerifyRequest

# Stands in for the user message when learning the chat format from the server.
SENTINEL = "\u27e6VERIFIER-PROMPT\u27e7"


@dataclass(frozen=True, slots=True)
class ChatWrapper:
    """The text around a single user message in the model's chat template.

    ``/v1/completions`` takes a list of prompts (one request for a whole batch) but applies
    no chat template, so the client wraps each prompt itself: ``prefix + user + suffix``.
    """

    prefix: str = ""
    suffix: str = ""

    def wrap(self, user_message: str) -> str:
        return f"{self.prefix}{user_message}{self.suffix}"

    @classmethod
    def from_rendered(cls, rendered: str) -> ChatWrapper:
        """Split a template rendered around :data:`SENTINEL` into prefix and suffix."""
        if rendered.count(SENTINEL) != 1:
            raise ValueError("the rendered chat template does not contain the prompt once")
        prefix, suffix = rendered.split(SENTINEL)
        return cls(prefix, suffix)


PLAIN = ChatWrapper()


# What one item may put into a prompt. The answer is the policy's text, so it is fenced
# and capped: it cannot close the template's tags, speak in any chat template's tokens, or
# push the instructions out of the model's context. (The answer has been normalised and cut
# to the answer itself before it gets here: services.verifier.answer_bearing.)
MAX_ANSWER_CHARS = 1_000
MAX_QUESTION_CHARS = 8_000
MAX_REFERENCE_CHARS = 2_000
MAX_RESPONSE_CHARS = 48_000  # a rubric item's response: graded whole, within reason
CUT = " …[cut]"
# Angle brackets and bars as ASCII, full-width (DeepSeek's "<｜User｜>") or small forms.
_LT, _GT, _BAR = "[<＜﹤]", "[>＞﹥]", "[|｜]"
# The tokens of the common chat-template families:
# * a tag: the template's own (``</model_answer>``), Gemma's ``<start_of_turn>``, ``<s>``;
# * a bar token: ChatML and Llama 3 (``<|im_start|>``, ``<|start_header_id|>``), DeepSeek
#   (``<｜Assistant｜>``, ``<｜end▁of▁sentence｜>``), Phi and Zephyr (``<|user|>``);
# * a bracket token: Llama 2 and Mistral (``[INST]``, ``[/INST]``, ``[SYSTEM_PROMPT]``,
#   ``[TOOL_CALLS]``) and Llama 2's ``<<SYS>>``;
# * a role line: ``Human:``, ``Assistant:``, ``System:``, ``### Instruction:`` at a line's
#   start (the Anthropic and Alpaca layouts).
_TAG = re.compile(
    rf"{_LT}(\s*/?\s*[A-Za-z_][\w:.-]{{0,40}}\s*/?\s*){_GT}"
    rf"|{_LT}\s*{_BAR}([^|｜<>＜＞\n]{{0,40}}){_BAR}\s*{_GT}"
    rf"|{_LT}{_LT}\s*(/?\s*SYS)\s*{_GT}{_GT}"
)
_BRACKET_TOKEN = re.compile(
    r"[\[［]\s*(/?\s*(?:INST|SYS|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS"
    r"|TOOL_CONTENT|THINK|IMG|BOS|EOS))\s*[\]］]",
    re.IGNORECASE,
)
_ROLE_LINE = re.compile(
    r"^([ \t>#*]*(?:system|user|assistant|human|ai|model|bot|gpt|instruction|response))"
    r"[ \t]*[:：]",
    re.IGNORECASE | re.MULTILINE,
)


def _defused(match: re.Match[str]) -> str:
    tag, bar, sys = match.groups()
    if tag is not None:
        return f"‹{tag}›"
    if bar is not None:
        return f"‹|{bar}|›"
    return f"‹‹{sys}››"


def fenced(text: str, limit: int) -> str:
    """``text`` as an item field: tags and chat-template tokens of every common family
    defused (their angle brackets become ‹ ›, square brackets ⟦ ⟧, a role line's colon ꞉:
    characters no template or tokenizer reads as markup, NFKC included), cut to ``limit``
    characters."""
    if len(text) > limit:
        text = text[:limit] + CUT
    text = _TAG.sub(_defused, text)
    text = _BRACKET_TOKEN.sub(lambda m: f"⟦{m.group(1)}⟧", text)
    return _ROLE_LINE.sub(lambda m: f"{m.group(1)}꞉", text)


def _fill(template: str, **fields: str) -> str:
    # One regex pass, not str.format (LaTeX braces) nor chained str.replace (an answer that
    # contains "{answer}" would be substituted again): only the template's own fields.
    pattern = re.compile("|".join(re.escape("{" + name + "}") for name in fields))
    return pattern.sub(lambda match: fields[match.group(0)[1:-1]], template)


def verify_prompt(
    config: VerifierConfig, item: VerifyRequest, source: VerdictSource = VerdictSource.TINYV
) -> str:
    """The user message for one item (before chat wrapping): the TinyV-style template, or
    the rubric verdict template when a rubric reward model judges."""
    return _fill(
        config.rubric_verdict_prompt if source == VerdictSource.RUBRIC else config.verdict_prompt,
        question=fenced(item.question, MAX_QUESTION_CHARS),
        reference=fenced(item.reference, MAX_REFERENCE_CHARS),
        answer=fenced(item.answer, MAX_ANSWER_CHARS),
        true_label=config.true_label,
        false_label=config.false_label,
    )


def rubric_prompt(config: VerifierConfig, item: RubricRequest) -> str:
    return _fill(
        config.grading_prompt,
        question=fenced(item.question, MAX_QUESTION_CHARS),
        response=fenced(item.response, MAX_RESPONSE_CHARS),
        rubric=fenced(item.rubric, MAX_QUESTION_CHARS)
        or "Correctness first, then completeness and clarity.",
    )


SCORE_PREFIX = "\nTotal Score: "
# Second, constrained step of rubric grading: the score after "Total Score: ".
SCORE_REGEX = r"(10|[0-9])(\.[0-9])?/10"
