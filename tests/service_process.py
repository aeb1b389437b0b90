"""Start the real service in a subprocess on a free loopback port, for tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
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


class ServiceProcess:
    """One service replica whose process a test controls: kill it, start it again.

    ``running_service`` hides its process; the multi-replica tests need to SIGKILL a replica
    mid-load and restart it on the same port, as a crashed container would come back.
    ``wrapper`` is prepended to the command (e.g. the image's entrypoint script).
    """

    def __init__(
        self,
        env: dict[str, str] | None = None,
        port: int | None = None,
        wrapper: Sequence[str] = (),
        log_level: str = "warning",
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.wrapper = list(wrapper)
        self.log_level = log_level
        self.process: subprocess.Popen[bytes] | None = None
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115  (closed in stop())
            "w+", prefix=f"verifier-{self.port}-", suffix=".log", delete=False
        )

    def start(self) -> None:
        """Spawn the process; returns at once (see ``wait_ready``)."""
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError(f"replica on port {self.port} is already running")
        command = [
            *self.wrapper,
            sys.executable,
            "-m",
            "uvicorn",
            "services.app:create_app_from_env",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-level",
            self.log_level,
        ]
        self.process = subprocess.Popen(
            command, env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )

    def wait_ready(self, startup_s: float = 90.0) -> None:
        """Block until ``/ready`` answers 200; raise with the log if the process died."""
        deadline = time.monotonic() + startup_s
        while True:
            if self.process is None or self.process.poll() is not None:
                self.log.flush()
                self.log.seek(0)
                log = self.log.read()
                raise RuntimeError(f"replica {self.port} exited during start-up:\n{log}")
            try:
                if httpx.get(f"{self.url}/ready", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"replica {self.port} not ready after {startup_s}s")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would: no graceful shutdown, no drain."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError(f"replica {self.port} was never started")
        return self.process.pid

    def stop(self) -> None:
        """Graceful stop (SIGTERM, then SIGKILL after 20 s), and remove the log."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        if os.path.exists(self.log.name):
            os.unlink(self.log.name)


@contextmanager
def running_replicas(
    count: int, env: dict[str, str] | None = None, wrapper: Sequence[str] = ()
) -> Iterator[list[ServiceProcess]]:
    """``count`` replicas started together (their start-ups overlap), all ready."""
    replicas = [ServiceProcess(env, wrapper=wrapper) for _ in range(count)]
    try:
        for replica in replicas:
            replica.start()
        for replica in replicas:
            replica.wait_ready()
        yield replicas
    finally:
        for replica in replicas:
            replica.stop()
