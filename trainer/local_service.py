"""Start the reward service as a child process on a free loopback port (``service.url: auto``).

The child runs the service's own command (``verifier serve``), and the trainer waits for it
by asking ``GET /ready`` through the client, then talks to it only over HTTP, exactly as to
a remote replica; this just makes the CPU demo one command. The child is stopped when the
block exits. Its log (start-up, one line per request, warnings) is kept in
``output_dir/service.log``.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

import httpx
from pydantic import ValidationError

from services.contract.client import Client, ClientSettings

log = logging.getLogger(__name__)

SERVICE_LOG = "service.log"
POLL_S = 0.2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def service_command(port: int) -> list[str]:
    """``verifier serve`` on a loopback port, run by this interpreter."""
    return [
        sys.executable, "-m", "services.cli", "serve",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "info",
    ]  # fmt: skip


def _tail(log_file: IO[str], chars: int = 4000) -> str:
    log_file.flush()
    log_file.seek(0)
    return log_file.read()[-chars:]


def wait_ready(
    process: subprocess.Popen[bytes], url: str, timeout_s: float, log_file: IO[str]
) -> None:
    """Ask ``GET /ready`` until the service says it is ready; RuntimeError with its log
    when the child exits or time is up."""
    deadline = time.monotonic() + timeout_s
    with Client(ClientSettings.for_urls(url, timeout_s=2.0, connect_timeout_s=2.0)) as client:
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    f"exited during start-up (rc={process.returncode}):\n{_tail(log_file)}"
                )
            try:
                if client.ready().ready:
                    return
            except (httpx.HTTPError, ValidationError, ValueError):
                pass  # not listening yet, or not answering /ready yet
            if time.monotonic() > deadline:
                raise RuntimeError(f"not ready after {timeout_s:g}s:\n{_tail(log_file)}")
            time.sleep(POLL_S)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL after 20 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def local_service(startup_timeout_s: float = 120.0, log_dir: Path | None = None) -> Iterator[str]:
    """Run the service and yield its base URL once ready (log kept in ``log_dir``)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with ExitStack() as stack:
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
            log_file: IO[str] = stack.enter_context((log_dir / SERVICE_LOG).open("w+"))
        else:
            log_file = stack.enter_context(tempfile.TemporaryFile("w+"))
        process = subprocess.Popen(service_command(port), stdout=log_file, stderr=subprocess.STDOUT)
        stack.callback(_stop, process)
        try:
            wait_ready(process, url, startup_timeout_s, log_file)
        except RuntimeError as exc:
            raise RuntimeError(
                f"the reward service did not start (is the [service] extra installed?): "
                f"service on port {port} {exc}"
            ) from None
        log.info("started the reward service at %s (log: %s)", url, log_file.name)
        yield url
