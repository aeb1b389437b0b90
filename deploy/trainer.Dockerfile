# The GRPO trainer: TRL on CUDA torch, calling the verifier service over HTTP.
#   docker build -f deploy/trainer.Dockerfile -t reward-verifier-trainer .
#   docker run --gpus '"device=1"' -v $PWD/data:/app/data:ro -v $PWD/outputs:/app/outputs \
#     reward-verifier-trainer grpo-train --config configs/math.yaml --service_url http://HOST:8000
# Pick the CUDA build that your driver supports (nvidia-smi shows the highest CUDA version):
#   --build-arg TORCH_INDEX_URL=https://download.pytorch.org/whl/cu126
# vLLM generation inside the trainer (generation.use_vllm): --build-arg EXTRA_PACKAGES=vllm
FROM python:3.11-slim

ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cu128
ARG TORCH_SPEC=torch
ARG EXTRA_PACKAGES=""

# torch first, from the CUDA index: the [trainer] extra leaves torch unpinned, and the
# CUDA runtime comes inside the wheels (the host only needs the NVIDIA driver).
RUN pip install --no-cache-dir --index-url "${TORCH_INDEX_URL}" "${TORCH_SPEC}" \
 && python -c "import torch, sys; sys.exit(0 if torch.version.cuda else 'CPU-only torch')"

WORKDIR /app
COPY pyproject.toml README.md ./
COPY trainer trainer
RUN pip install --no-cache-dir ".[trainer]" \
 && if [ -n "${EXTRA_PACKAGES}" ]; then pip install --no-cache-dir ${EXTRA_PACKAGES}; fi
# Defaults for a bare `docker run`; compose mounts its own configs/, data/ and outputs/.
COPY trainer/configs configs

ENV PYTHONUNBUFFERED=1 HF_HOME=/root/.cache/huggingface
CMD ["grpo-train", "--config", "configs/math.yaml"]
