#!/usr/bin/env bash
# The whole stack for real, in one command: build it, start it, exercise it, remove it.
#   scripts/compose-e2e.sh           # ... then `down -v`, whatever happened
#   scripts/compose-e2e.sh --keep    # leave the stack up and print the gateway's URL
#   scripts/compose-e2e.sh --prepare # steps 1 and 2 only (downloads, mostly): `make test`
#                                    # runs them beside its other installs
# Steps (each is timed):
#   1. a Docker engine and the compose plugin (scripts/docker-engine.sh; root + Debian);
#   2. base images from Debian packages (scripts/base-images.sh) and, at the same time, a
#      wheelhouse image (scripts/wheelhouse.sh): builds need no registry and no index;
#   3. `up --build --wait` of compose.yaml + deploy/compose.cpu.yaml (no GPU), the gateway
#      published on 127.0.0.1 only, under its own project name;
#   4. tests/deploy/compose_e2e.py through the gateway: /ready, a math batch, a code batch
#      (passing and hostile programs), addon mode with the CPU rubric's probability,
#      --scale verifier=3 and one replica killed under load, 2 GRPO steps of the trainer.
# Exit status: 0 all passed, 1 a check failed, 3 no engine can be set up here, 4 the
# checks' Python packages (httpx, docker) are missing and cannot be installed.
# Needs: root on Debian (for the engine), python3; the checks' packages come from .venv
# (`make install-dev`) or, without it, are installed into $COMPOSE_E2E_CACHE/checks-venv.
# Caches (base root filesystems, wheels) live in $COMPOSE_E2E_CACHE (.cache/compose-e2e).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
KEEP=0
PREPARE=0
case "${1:-}" in
  --keep) KEEP=1 ;;
  --prepare) PREPARE=1 ;;
  "") ;;
  *) echo "usage: $0 [--keep | --prepare]" >&2; exit 2 ;;
esac
export COMPOSE_E2E_CACHE=${COMPOSE_E2E_CACHE:-$ROOT/.cache/compose-e2e}
PROJECT=${COMPOSE_E2E_PROJECT:-reward-verifier-e2e}
REPORT=${COMPOSE_E2E_REPORT:-$COMPOSE_E2E_CACHE/report.json}
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PYTHON" ] || PYTHON=python3
mkdir -p "$COMPOSE_E2E_CACHE"

STARTED=$(date +%s)
phase() { echo "== [$(($(date +%s) - STARTED))s] $*"; }

phase "engine"
rc=0
scripts/docker-engine.sh || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"

# Independent, and bound by downloads and disk rather than CPU: side by side.
phase "base images and wheelhouse"
scripts/base-images.sh >"$COMPOSE_E2E_CACHE/base-images.env" &
base_images=$!
wheels=$(scripts/wheelhouse.sh) || { wait "$base_images" || true; exit 1; }
wait "$base_images"
eval "$(cat "$COMPOSE_E2E_CACHE/base-images.env")"
eval "$wheels"
if [ "$PREPARE" -eq 1 ]; then
  phase "prepared: $PYTHON_BASE_IMAGE, $NGINX_BASE_IMAGE, $WHEELS_IMAGE"
  exit 0
fi

# The checks (tests/deploy/compose_e2e.py) import httpx and the Docker SDK; everything else
# they use is the standard library. Without them in $PYTHON, a venv of their own. Not
# needed by --prepare, which `make test` runs while it installs .venv.
CHECK_PACKAGES=("httpx>=0.27" "docker>=7.1")
if ! "$PYTHON" -c 'import httpx, docker' 2>/dev/null; then
  CHECKS_VENV=$COMPOSE_E2E_CACHE/checks-venv
  echo "compose-e2e: $PYTHON lacks httpx or docker; installing ${CHECK_PACKAGES[*]} into $CHECKS_VENV" >&2
  if ! { [ -x "$CHECKS_VENV/bin/python" ] || python3 -m venv "$CHECKS_VENV"; } ||
    ! "$CHECKS_VENV/bin/python" -m pip install -q "${CHECK_PACKAGES[@]}"; then
    echo "compose-e2e: cannot install ${CHECK_PACKAGES[*]}: run \`make install-dev\` (or" \
      "install them into \$PYTHON) and try again" >&2
    exit 4
  fi
  PYTHON=$CHECKS_VENV/bin/python
fi

# Settings for this run only: an empty env file, so a developer's .env does not apply.
ENV_FILE=$COMPOSE_E2E_CACHE/empty.env
: >"$ENV_FILE"
# The gateway's port, below the kernel's ephemeral range (services/launcher.py says why):
# an ephemeral port picked now may be handed to another program while the images build.
PORT=$("$PYTHON" -c 'from services.launcher import free_port; print(free_port())')
export BASE_IMAGE=$PYTHON_BASE_IMAGE GATEWAY_IMAGE=$NGINX_BASE_IMAGE WHEELS_IMAGE BUILD_NETWORK=host
export VERIFIER_PORT=127.0.0.1:$PORT
# Small replicas: the stack shares the machine with the rubric, and --scale adds a third.
export VERIFIER_REPLICAS=2 VERIFIER_CPUS=1 VERIFIER_MATH_WORKERS=1 VERIFIER_SANDBOX_WORKERS=1
export VERIFIER_MEMORY=2g VERIFIER_MATH_TIMEOUT_S=30
export TRAIN_OUTPUT_DIR=$COMPOSE_E2E_CACHE/outputs TRAIN_DATA_DIR=$COMPOSE_E2E_CACHE/data
# SmolLM2 as the tests build it (python -m harness.vllm): the rubric finds it there,
# or builds it there once (minutes on a busy CPU) instead of in a volume on every run.
export RUBRIC_MODELS_DIR=$ROOT/.cache/models
rm -rf "$TRAIN_OUTPUT_DIR"
mkdir -p "$TRAIN_OUTPUT_DIR" "$TRAIN_DATA_DIR" "$RUBRIC_MODELS_DIR"
FILES=(-f compose.yaml -f deploy/compose.cpu.yaml)
COMPOSE=(docker compose --progress plain -p "$PROJECT" --env-file "$ENV_FILE" "${FILES[@]}")
# Without buildx, compose builds through the engine's own BuildKit (say so once, not per run).
export COMPOSE_BAKE=false

cleanup() {
  local status=$?
  if [ "$KEEP" -eq 1 ]; then
    echo "the stack is up: http://127.0.0.1:$PORT (docker compose -p $PROJECT ${FILES[*]} ...)"
    echo "remove it with: docker compose -p $PROJECT ${FILES[*]} --profile train down -v"
  else
    phase "down -v"
    "${COMPOSE[@]}" --profile train down -v --remove-orphans --timeout 10 >/dev/null 2>&1 || true
  fi
  phase "done (exit $status)"
}
trap cleanup EXIT

phase "up --build --wait"
"${COMPOSE[@]}" up -d --build --wait --wait-timeout 900 || {
  "${COMPOSE[@]}" ps -a
  "${COMPOSE[@]}" logs --tail 40
  exit 1
}
phase "build the trainer image"
"${COMPOSE[@]}" --profile train build trainer

phase "checks through http://127.0.0.1:$PORT"
"$PYTHON" -m tests.deploy.compose_e2e --project "$PROJECT" --url "http://127.0.0.1:$PORT" \
  --env-file "$ENV_FILE" --compose-file compose.yaml --compose-file deploy/compose.cpu.yaml \
  --outputs "$TRAIN_OUTPUT_DIR" --report "$REPORT"
