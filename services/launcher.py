"""Run the service (or any HTTP server) as a child process and wait until it answers.

Used by ``grpo-train`` when ``service.url`` is ``auto`` (the one-command demo), by the
tests and by the benchmarks: all of them then talk to the service over HTTP, as to any
remote replica.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx

# How long a started service may take to answer /ready: a bound, not a target. A quiet
# machine takes a few seconds; 2 cores busy with other work have taken over a minute.
STARTUP_S = 300.0


class NotReady(RuntimeError):
    """The child exited, or did not answer in time; the message carries its log tail."""


_EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_LOWEST_PORT = 10000


def _ephemeral_start() -> int:
    """The first port of the kernel's ephemeral range (Linux's default where unreadable)."""
    try:
        return int(_EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A free loopback port for a server that binds it later: one below the kernel's
    ephemeral range, which the kernel never hands to another program (a bind to port 0, an
    outgoing connection) before the server's own bind, as it can an ephemeral port; any
    free port where there is no such range."""
    start = _ephemeral_start()
    candidates = range(_LOWEST_PORT, start) if start > _LOWEST_PORT else range(0)
    for port in random.sample(candidates, min(1000, len(candidates))):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        chosen: int = sock.getsockname()[1]
        return chosen


def wait_until_ready(
    process: subprocess.Popen[Any],
    url: str,
    timeout_s: float,
    describe: Callable[[], str] = lambda: "",
    poll_s: float = 0.2,
) -> None:
    """Poll ``url`` until it answers 200; raise NotReady if ``process`` exits or time is up."""
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            raise NotReady(f"exited during start-up (rc={process.returncode}):\n{describe()}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise NotReady(f"not ready after {timeout_s:g}s:\n{describe()}")
        time.sleep(poll_s)


class ServiceProcess:
    """One service process on a loopback port: start, wait for /ready, kill, restart.

    ``wrapper`` is prepended to the command (e.g. the container's entrypoint script). The
    log goes to ``log_path`` when given (and is kept), else to a temporary file removed by
    ``stop``.
    """

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        port: int | None = None,
        wrapper: Sequence[str] = (),
        log_level: str = "warning",
        log_path: Path | None = None,
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.wrapper = list(wrapper)
        self.log_level = log_level
        self.process: subprocess.Popen[bytes] | None = None
        self._keep_log = log_path is not None
        if log_path is not None:
            log_path.parent.mkdir(parents=True, exist_ok=True)
            self.log: IO[str] = log_path.open("w+", encoding="utf-8")
        else:
            self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115  (closed in stop())
                "w+", prefix=f"verifier-{self.port}-", suffix=".log", delete=False
            )

    @property
    def log_path(self) -> Path:
        return Path(self.log.name)

    def command(self) -> list[str]:
        return [
            *self.wrapper, sys.executable, "-m", "uvicorn", "services.app:create_app_from_env",
            "--factory", "--host", "127.0.0.1", "--port", str(self.port),
            "--log-level", self.log_level,
        ]  # fmt: skip

    def start(self) -> None:
        """Spawn the process; returns at once (see ``wait_ready``)."""
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError(f"service on port {self.port} is already running")
        self.process = subprocess.Popen(
            self.command(), env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )

    def log_tail(self, chars: int = 4000) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]

    def wait_ready(self, startup_s: float = STARTUP_S) -> None:
        """Block until ``/ready`` answers 200; NotReady with the log if it never does."""
        if self.process is None:
            raise RuntimeError(f"service on port {self.port} was never started")
        try:
            wait_until_ready(self.process, f"{self.url}/ready", startup_s, self.log_tail)
        except NotReady as exc:
            raise NotReady(f"service on port {self.port} {exc}") from None

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would: no graceful shutdown, no drain."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError(f"service on port {self.port} was never started")
        return self.process.pid

    def stop(self) -> None:
        """Graceful stop (SIGTERM, then SIGKILL after 20 s); a temporary log is removed."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        if not self._keep_log and self.log_path.exists():
            self.log_path.unlink()


@contextmanager
def running_service(
    env: Mapping[str, str] | None = None,
    startup_s: float = STARTUP_S,
    log_path: Path | None = None,
) -> Iterator[str]:
    """Run the service on a free loopback port and yield its base URL once ready."""
    service = ServiceProcess(env, log_path=log_path)
    try:
        service.start()
        service.wait_ready(startup_s)
        yield service.url
    finally:
        service.stop()
