"""Strip the end-of-sequence and padding tokens a trainer leaves on a decoded response.

OpenRLHF decodes prompt + response with special tokens kept, so a response arrives as
``#### 4<|im_end|>`` or ``… 4</s><pad><pad>``; the answer must be read without them.
"""

from __future__ import annotations

from collections.abc import Iterable

# The end-of-turn, end-of-text and padding texts of the common chat model families
# (Qwen/ChatML, GPT-2 style, Llama 2/Mistral, Llama 3, Phi-3, Gemma, T5-style padding).
COMMON_END_TOKENS = (
    "<|im_end|>",
    "<|endoftext|>",
    "</s>",
    "<|eot_id|>",
    "<|end_of_text|>",
    "<|eom_id|>",
    "<|end|>",
    "<end_of_turn>",
    "<eos>",
    "<pad>",
    "<|pad|>",
)


def strip_end_tokens(text: str, extra: Iterable[str] = ()) -> str:
    """``text`` without its trailing run of end/padding tokens (``extra`` and the common
    ones, in any order and repeated) and the whitespace between them."""
    tokens = sorted({*COMMON_END_TOKENS, *extra} - {""}, key=len, reverse=True)
    end = len(text)
    while True:
        # Indices rather than slices: a response padded with thousands of tokens stays
        # linear in its length.
        while end and text[end - 1].isspace():
            end -= 1
        token = next((t for t in tokens if text.endswith(t, 0, end)), None)
        if token is None:
            return text[:end]
        end -= len(token)
