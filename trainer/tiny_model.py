"""A tiny random Llama with a tokenizer trained here, for tests and benchmarks.

No hub access needed: the BPE tokenizer is trained on a small corpus in a second, given a
ChatML template, and saved with a 2-layer model, so the folder loads like any model.
"""

from __future__ import annotations

from pathlib import Path

CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)
SPECIAL_TOKENS = ["<|pad|>", "<|im_start|>", "<|im_end|>"]

_CORPUS = [
    "What is 2 + 3? <think> 2 plus 3 is 5 </think> <answer> 5 </answer>",
    "Compute 7 * 6. The answer is 42. \\boxed{42}",
    "def add(a, b):\n    return a + b\n",
    "```python\nprint(sum(map(int, input().split())))\n```",
    "First reason step by step inside <think> </think> tags, then give only the final answer "
    "inside <answer> </answer> tags.",
    "Write the complete solution in a ```python fenced code block.",
    "system user assistant question answer reasoning code tests 0 1 2 3 4 5 6 7 8 9 + - * / =",
]


def build_tiny_model(
    dest: Path,
    *,
    hidden: int = 32,
    layers: int = 2,
    seed: int = 0,
    intermediate: int | None = None,
    heads: int = 4,
    kv_heads: int = 2,
) -> Path:
    """Write a tokenizer and a random LlamaForCausalLM to ``dest``; returns ``dest``.

    The defaults make a model small enough for CPU tests; the other arguments give the
    transformer body of a real model's shape (e.g. Qwen2.5-1.5B) for step-time benchmarks.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    if (dest / "config.json").exists() and (dest / "tokenizer.json").exists():
        return dest
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(
        _CORPUS * 20,
        trainers.BpeTrainer(
            vocab_size=400,
            special_tokens=SPECIAL_TOKENS,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    tokenizer = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=bpe,
        pad_token="<|pad|>",
        bos_token="<|im_start|>",
        eos_token="<|im_end|>",
        chat_template=CHAT_TEMPLATE,
    )
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=intermediate or hidden * 2,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        max_position_embeddings=512,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        tie_word_embeddings=True,
    )
    model = LlamaForCausalLM(config)
    dest.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(dest)
    tokenizer.save_pretrained(dest)
    return dest
