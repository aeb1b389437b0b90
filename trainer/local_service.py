"""Start the reward service as a child process on a free loopback port (``service.url: auto``).

The trainer still talks to it only over HTTP, exactly as to a remote replica; this just
makes the CPU demo one command. The child is stopped when the block exits.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

log = logging.getLogger(__name__)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def local_service(startup_timeout_s: float = 120.0, log_dir: Path | None = None) -> Iterator[str]:
    """Run ``uvicorn services.app:create_app_from_env`` and yield its base URL once ready."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        log_path = log_dir / "service.log"
    else:
        log_path = Path(tempfile.mkstemp(prefix="verifier-", suffix=".log")[1])
    command = [
        sys.executable, "-m", "uvicorn", "services.app:create_app_from_env", "--factory",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]
    with log_path.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(command, env=dict(os.environ), stdout=out,
                                   stderr=subprocess.STDOUT)
        try:
            _wait_ready(process, url, startup_timeout_s, log_path)
            log.info("started the reward service at %s (log: %s)", url, log_path)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_ready(process: subprocess.Popen[bytes], url: str, timeout_s: float,
                log_path: Path) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            raise RuntimeError(
                f"the reward service exited during start-up (is the [service] extra "
                f"installed?):\n{log_path.read_text(encoding='utf-8')[-3000:]}"
            )
        try:
            if httpx.get(f"{url}/ready", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the reward service was not ready after {timeout_s}s; "
                               f"see {log_path}")
        time.sleep(0.25)
