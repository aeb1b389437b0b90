# The verifier service: rule-based math, sandboxed code (bubblewrap), no torch.
#   docker build -f deploy/verifier.Dockerfile -t reward-verifier .
# bubblewrap needs namespaces inside the container: run with
#   --cap-add SYS_ADMIN --security-opt seccomp=unconfined --security-opt apparmor=unconfined
# (compose.yaml sets these; docs/sandbox.md explains the options and their trade-offs).
FROM python:3.11-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY services services
COPY sandbox sandbox
COPY trainer/__init__.py trainer/__init__.py
RUN pip install --no-cache-dir ".[service]"
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
