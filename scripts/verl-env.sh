#!/usr/bin/env bash
# verl's released wheel in its own venv (.cache/verl), for the tests that run verl's reward
# loop against the service (tests/trainer/adapters/test_verl_loop.py).
#
# Its own venv because verl's reward loop imports omegaconf, whose config parser needs
# antlr4-python3-runtime 4.9, while math-verify in .venv needs 4.13. The venv sees .venv's
# packages (torch, transformers, numpy, ray, the project itself) behind its own: verl and the
# few packages its reward path imports are installed with --no-deps (verl's full requirements
# pin GPU builds of torch and vLLM). Built once; rebuilt when this script changes.
#
#   scripts/verl-env.sh                 # build (or reuse) .cache/verl
#   VERL_ENV=/tmp/verl scripts/verl-env.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PROJECT_VENV=${PROJECT_VENV:-.venv}
ENV_DIR=${VERL_ENV:-.cache/verl}
# verl's reward path imports these besides what .venv has.
PACKAGES=(
    "verl==0.9.1"
    "omegaconf==2.3.0"
    "antlr4-python3-runtime==4.9.3"
    "tensordict==0.10.0"
    "pyvers==0.1.0"
    "cloudpickle>=3.1"
    "codetiming==1.4.0"
)
# Ray: .venv's where it has one (the deployment's), else verl's floor with its dependencies.
RAY=${RAY:-ray==2.60.0}

stamp="$ENV_DIR/.built-$(sha256sum "$0" | cut -c1-16)"
if [[ -f "$stamp" ]]; then
    exit 0
fi
rm -rf "$ENV_DIR"
"$PROJECT_VENV/bin/python" -m venv "$ENV_DIR"
project_site=$("$PROJECT_VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
own_site=$("$ENV_DIR/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
# addsitedir (not a bare path) so .venv's own .pth files, the project's editable install
# among them, are read too; appended after this venv's site-packages, so its packages win.
echo "import site; site.addsitedir('$(realpath "$project_site")')" > "$own_site/zz-project-venv.pth"
"$ENV_DIR/bin/pip" install -q --disable-pip-version-check --no-deps "${PACKAGES[@]}"
if ! "$ENV_DIR/bin/python" -c "import ray" 2>/dev/null; then
    "$ENV_DIR/bin/pip" install -q --disable-pip-version-check "$RAY"
fi
"$ENV_DIR/bin/python" -c "import verl.experimental.reward_loop, trainer.adapters.verl_reward"
touch "$stamp"
