"""Trailing end-of-sequence and padding tokens, as trainers decode them."""

from __future__ import annotations

import time

import pytest

from services.end_tokens import strip_end_tokens


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("#### 4<|im_end|>", "#### 4"),
        ("The answer is 4<|eot_id|>", "The answer is 4"),
        ("\\boxed{4}</s><pad><pad><pad>", "\\boxed{4}"),
        ("\\boxed{4}<|im_end|>\n<|endoftext|><|endoftext|>", "\\boxed{4}"),
        ("x = 4 <|end_of_text|> ", "x = 4"),
        ("no end token", "no end token"),
        ("<|im_end|> inside stays <|im_end|>", "<|im_end|> inside stays"),
        ("<|im_end|>", ""),
        ("", ""),
    ],
)
def test_common_end_tokens_are_stripped(text: str, stripped: str) -> None:
    assert strip_end_tokens(text) == stripped


def test_a_tokenizers_own_end_texts() -> None:
    assert strip_end_tokens("#### 4[EOS][PAD][PAD]", ["[EOS]", "[PAD]"]) == "#### 4"
    assert strip_end_tokens("#### 4[EOS]") == "#### 4[EOS]"
    assert strip_end_tokens("#### 4</s>", [""]) == "#### 4"  # an empty text is ignored


def test_a_long_padding_run_is_linear() -> None:
    text = "\\boxed{4}" + "<pad>" * 200_000
    started = time.perf_counter()
    assert strip_end_tokens(text) == "\\boxed{4}"
    # Slicing per token would copy ~1 MB 200,000 times; indices take well under a second.
    assert time.perf_counter() - started < 5.0
