"""The tiny test model: a folder that loads like any model, with a chat template."""

from __future__ import annotations

from pathlib import Path

from transformers import AutoModelForCausalLM, AutoTokenizer

from trainer.tiny_model import SPECIAL_TOKENS, build_tiny_model


def test_the_folder_loads_and_chats(tiny_model_dir: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": "What is 2 + 3?"}], tokenize=False, add_generation_prompt=True
    )
    assert prompt == "<|im_start|>user\nWhat is 2 + 3?<|im_end|>\n<|im_start|>assistant\n"
    assert set(SPECIAL_TOKENS) <= set(tokenizer.get_vocab())
    assert model.config.vocab_size == len(tokenizer)
    assert model.config.num_hidden_layers == 2
    ids = tokenizer(prompt, return_tensors="pt").input_ids
    assert model(ids).logits.shape == (1, ids.shape[1], len(tokenizer))


def test_an_existing_folder_is_reused(tiny_model_dir: Path) -> None:
    before = (tiny_model_dir / "config.json").stat().st_mtime_ns
    assert build_tiny_model(tiny_model_dir, hidden=64) == tiny_model_dir
    assert (tiny_model_dir / "config.json").stat().st_mtime_ns == before
