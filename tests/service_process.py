"""Start the real service in a subprocess on a free loopback port, for tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_service(env: dict[str, str] | None = None, startup_s: float = 90.0) -> Iterator[str]:
    """Run ``uvicorn services.app:create_app_from_env`` and yield its base URL."""
    port = free_port()
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115  (outlives this block: closed in finally)
        "w+", prefix="verifier-", suffix=".log", delete=False
    )
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "services.app:create_app_from_env",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(
        command, env={**os.environ, **(env or {})}, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_s
        while True:
            if process.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"service exited during start-up:\n{log.read()}")
            try:
                if httpx.get(f"{url}/ready", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"service not ready after {startup_s}s")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        os.unlink(log.name)
