"""Run nginx with the gateway config from deploy/, on loopback, in front of test replicas.

The template is rendered the way the nginx image renders it (envsubst of the variables it
is given) with two differences from compose: the gateway listens on a free loopback port,
and each replica is one `server 127.0.0.1:PORT ...;` line carrying the same parameters as
compose's `server verifier:8000 resolve ...;` line (`resolve` is dropped: an IP literal
needs no DNS, and it needs nginx >= 1.27.3 where Debian ships 1.22).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.compose_files import ROOT, load_compose, read_env_file
from services.launcher import free_port, wait_until_ready

TEMPLATE = ROOT / "deploy" / "nginx" / "gateway.conf.template"
_PLACEHOLDER = re.compile(r"\$\{([A-Z][A-Z0-9_]*)\}")


def find_nginx() -> str | None:
    return shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None
    )


def compose_gateway_environment() -> dict[str, str]:
    """The gateway's environment from compose.yaml, interpolated with .env.example."""
    compose = load_compose(ROOT / "compose.yaml", read_env_file())
    environment: dict[str, Any] = compose["services"]["gateway"]["environment"]
    return {key: str(value) for key, value in environment.items()}


def render_template(text: str, variables: dict[str, str]) -> str:
    """envsubst restricted to ``variables``; an unknown ``${NAME}`` is an error here (the
    image would leave it in place, and nginx would then fail on it)."""

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in variables:
            raise KeyError(f"{TEMPLATE.name} uses ${{{name}}}, which is not provided")
        return variables[name]

    return _PLACEHOLDER.sub(substitute, text)


def loopback_servers(ports: Sequence[int]) -> str:
    """Compose's upstream server line, once per loopback port, same parameters."""
    line = compose_gateway_environment()["GATEWAY_UPSTREAM_SERVERS"].strip().rstrip(";")
    words = line.split()
    if words[:2] != ["server", "verifier:8000"]:
        raise ValueError(f"unexpected GATEWAY_UPSTREAM_SERVERS in compose.yaml: {line!r}")
    params = " ".join(word for word in words[2:] if word != "resolve")
    return " ".join(f"server 127.0.0.1:{port} {params};" for port in ports)


@dataclass
class Gateway:
    url: str
    directory: Path
    process: subprocess.Popen[bytes]

    @property
    def access_log(self) -> Path:
        return self.directory / "access.log"

    @property
    def error_log(self) -> Path:
        return self.directory / "error.log"


def _main_config(directory: Path, workers: int) -> str:
    # The image's nginx.conf includes conf.d/*.conf inside http {}; this is its minimal
    # equivalent, with every writable path inside the test's directory.
    return f"""
daemon off;
worker_processes {workers};
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    client_body_temp_path {directory}/client_body;
    proxy_temp_path {directory}/proxy;
    include {directory}/gateway.conf;
}}
"""


@contextmanager
def running_gateway(
    upstream_ports: Sequence[int], workers: int = 1, startup_s: float = 30.0
) -> Iterator[Gateway]:
    """nginx with deploy/'s gateway config in front of ``upstream_ports``; waits until
    ``/ready`` answers through it."""
    nginx = find_nginx()
    if nginx is None:
        raise RuntimeError("nginx is not installed (scripts/system-deps.sh --test)")
    directory = Path(tempfile.mkdtemp(prefix="gateway-"))
    # Workers run as `nobody` when the master is root; they write the temp paths in here.
    directory.chmod(0o755)
    port = free_port()
    environment = compose_gateway_environment()
    variables = {
        "GATEWAY_LISTEN": f"127.0.0.1:{port}",
        "GATEWAY_UPSTREAM_SERVERS": loopback_servers(upstream_ports),
        "GATEWAY_MAX_BODY_SIZE": environment["GATEWAY_MAX_BODY_SIZE"],
    }
    (directory / "gateway.conf").write_text(render_template(TEMPLATE.read_text(), variables))
    (directory / "nginx.conf").write_text(_main_config(directory, workers))
    with (directory / "access.log").open("wb") as stdout:
        process = subprocess.Popen(
            [
                nginx,
                "-e",
                str(directory / "error.log"),
                "-p",
                str(directory),
                "-c",
                str(directory / "nginx.conf"),
            ],
            stdout=stdout,
            stderr=subprocess.STDOUT,
        )
    gateway = Gateway(f"http://127.0.0.1:{port}", directory, process)
    try:
        wait_until_ready(
            process, f"{gateway.url}/ready", startup_s,
            lambda: gateway.error_log.read_text(errors="replace"), poll_s=0.1,
        )  # fmt: skip
        yield gateway
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(directory, ignore_errors=True)
