"""Turn a question into the prompt the policy sees: instructions, format, chat template."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

Message = dict[str, str]
ReasoningFormat = Literal["none", "think", "reasoning"]

_FORMAT_TAGS: dict[str, str] = {"think": "think", "reasoning": "reasoning"}


class ChatTemplating(Protocol):
    """The part of a tokenizer that renders a chat (a transformers tokenizer)."""

    chat_template: str | None

    def apply_chat_template(self, conversation: Any, **kwargs: Any) -> Any: ...


def format_instruction(reasoning_format: ReasoningFormat, task: str, language: str) -> str:
    """The instruction appended to the question: where the reasoning and answer go."""
    if task == "code":
        where = f"in a ```{language} fenced code block"
        if reasoning_format == "none":
            return f"Write the complete solution {where}."
        tag = _FORMAT_TAGS[reasoning_format]
        return (
            f"First reason inside <{tag}> </{tag}> tags, then give the complete solution "
            f"inside <answer> </answer> tags, {where}."
        )
    if task == "critique":
        return "Finish with a line 'Total Score: X/10'."
    if reasoning_format == "none":
        return "Put the final answer in \\boxed{}."
    tag = _FORMAT_TAGS[reasoning_format]
    return (
        f"First reason step by step inside <{tag}> </{tag}> tags, then give only the final "
        "answer inside <answer> </answer> tags."
    )


def build_messages(
    question: str,
    *,
    task: str,
    language: str,
    reasoning_format: ReasoningFormat,
    system_prompt: str | None,
    examples: Sequence[tuple[str, str]] = (),
) -> list[Message]:
    """The chat: the system prompt, worked examples as earlier turns, then the question.

    Each example is a (question, answer) pair shown as a user turn with the same
    instruction and the assistant's answer, so a small model sees the answer format it is
    rewarded for (a 135M model asked for ``\\boxed{}`` alone rarely writes one).
    """
    messages: list[Message] = []
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    instruction = format_instruction(reasoning_format, task, language)
    for example_question, example_answer in examples:
        messages.append({"role": "user", "content": f"{example_question.strip()}\n\n{instruction}"})
        messages.append({"role": "assistant", "content": example_answer})
    messages.append({"role": "user", "content": f"{question.strip()}\n\n{instruction}"})
    return messages


def render_prompt(messages: list[Message], tokenizer: ChatTemplating) -> str:
    """The plain-text prompt: the model's chat template with the assistant turn opened."""
    if not tokenizer.chat_template:
        # A base model without a template: plain text, as pretraining saw it.
        return "\n\n".join(m["content"] for m in messages) + "\n\n"
    text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    if not isinstance(text, str):
        raise TypeError(f"apply_chat_template returned {type(text).__name__}, not text")
    return text


def message_text(value: object) -> str:
    """Text of a completion or prompt in either TRL form: a string or a list of messages.

    For a conversation the last message counts (the assistant's reply, or the user's
    question); content given as typed parts contributes its text parts.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value:
        content = value[-1].get("content", "") if isinstance(value[-1], dict) else value[-1]
        if isinstance(content, list):
            return "".join(part.get("text", "") for part in content if isinstance(part, dict))
        return str(content)
    return ""
