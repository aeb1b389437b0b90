#!/usr/bin/env bash
# Build the base images locally from Debian packages, for machines that cannot pull from an
# image registry (air-gapped nodes, CI):
#   reward-verifier-base/python:bookworm   python3 + pip + venv (stands in for python:3.11-slim)
#   reward-verifier-base/nginx:forky       nginx >= 1.27.3, envsubst, wget (for nginx:1.28-alpine),
#                                          rendering /etc/nginx/templates/*.template at start
#                                          as the official image does
# Each root filesystem is made once with debootstrap and kept as a tarball under
# $COMPOSE_E2E_CACHE/base/ (default .cache/compose-e2e/base), so a later run, or a machine
# restored from that cache, only re-imports it (seconds). Needs root and debootstrap.
#   scripts/base-images.sh                 # build what is missing; print the image names
#   DEBIAN_MIRROR=http://mirror/debian scripts/base-images.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${COMPOSE_E2E_CACHE:-$ROOT/.cache/compose-e2e}/base
PYTHON_IMAGE=reward-verifier-base/python:bookworm
NGINX_IMAGE=reward-verifier-base/nginx:forky

# The mirror this machine's apt already uses (deb822 or one-line sources), else Debian's.
mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then
    echo "$DEBIAN_MIRROR"
    return
  fi
  local found
  found=$(grep -rhoE '^URIs: *[^ ]+/debian/?$|^deb +(\[[^]]*\] +)?[^ ]+/debian/? ' \
    /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | head -1 \
    | sed -E 's/^URIs: *//; s/^deb +(\[[^]]*\] +)?//; s/ *$//') || true
  echo "${found:-http://deb.debian.org/debian}"
}

# Make the Debian nginx behave like the official image: the template step as entrypoint,
# nginx in the foreground, and no default site (it listens on [::]:80, which fails where
# the container has no IPv6).
customize_nginx() {
  local dir=$1
  install -m 0755 "$ROOT/deploy/nginx/template-entrypoint.sh" "$dir/docker-entrypoint.sh"
  rm -f "$dir/etc/nginx/sites-enabled/default"
  mkdir -p "$dir/etc/nginx/templates"
}

# $1 image name, $2 suite, $3 packages (comma-separated), $4 customize function or "",
# $5 optional debootstrap script; the remaining arguments are `docker import --change`s.
build() {
  local image=$1 suite=$2 packages=$3 customize=$4 script=${5:-}
  shift 5
  local tarball=$CACHE/$suite${customize:+-${customize#customize_}}.tar
  if docker image inspect "$image" >/dev/null 2>&1; then
    echo "base-images: $image present" >&2
    return
  fi
  if [ ! -f "$tarball" ]; then
    command -v debootstrap >/dev/null 2>&1 || {
      [ "$(id -u)" -eq 0 ] || { echo "base-images: need root for debootstrap" >&2; exit 3; }
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    }
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/rootfs-$suite.XXXXXX")
    echo "base-images: debootstrap $suite ($packages) from $(mirror)" >&2
    # shellcheck disable=SC2086  # $script is empty or one path
    debootstrap --variant=minbase --include="$packages" "$suite" "$dir" "$(mirror)" $script \
      >"$dir.log" 2>&1 || { tail -20 "$dir.log" >&2; rm -rf "$dir"; exit 1; }
    rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
    [ -z "$customize" ] || "$customize" "$dir"
    mkdir -p "$CACHE"
    tar -C "$dir" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$dir" "$dir.log"
  fi
  echo "base-images: importing $image" >&2
  local changes=()
  for change in "$@"; do changes+=(--change "$change"); done
  docker import "${changes[@]}" "$tarball" "$image" >/dev/null
}

build "$PYTHON_IMAGE" bookworm python3,python3-pip,python3-venv,ca-certificates "" "" \
  'CMD ["python3"]'
# nginx >= 1.27.3 (`server ... resolve` in an upstream) is in forky, not bookworm.
build "$NGINX_IMAGE" forky nginx,gettext-base,wget,ca-certificates customize_nginx \
  /usr/share/debootstrap/scripts/sid \
  'ENTRYPOINT ["/docker-entrypoint.sh"]' 'CMD ["nginx", "-g", "daemon off;"]'

echo "PYTHON_BASE_IMAGE=$PYTHON_IMAGE"
echo "NGINX_BASE_IMAGE=$NGINX_IMAGE"
