"""Running a server as a child process and waiting until it answers, with real processes."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from services import launcher
from services.launcher import NotReady, ServiceProcess, free_port, wait_until_ready


@contextmanager
def child(*argv: str) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        yield process
    finally:
        process.kill()
        process.wait()


def test_ready_once_the_url_answers() -> None:
    port = free_port()
    with child("-m", "http.server", str(port), "--bind", "127.0.0.1") as process:
        wait_until_ready(process, f"http://127.0.0.1:{port}/", timeout_s=30, poll_s=0.05)
        assert process.poll() is None


def test_a_child_that_exits_is_not_ready_and_says_why() -> None:
    url = f"http://127.0.0.1:{free_port()}/"
    with (
        child("-c", "raise SystemExit(3)") as process,
        pytest.raises(NotReady, match=r"(?s)rc=3.*the log tail"),
    ):
        wait_until_ready(process, url, 30, lambda: "the log tail")


def test_a_child_that_never_answers_times_out() -> None:
    url = f"http://127.0.0.1:{free_port()}/"
    with (
        child("-c", "import time; time.sleep(60)") as process,
        pytest.raises(NotReady, match=r"not ready after 0\.5s"),
    ):
        wait_until_ready(process, url, 0.5, poll_s=0.05)


def test_a_service_that_cannot_start_shows_its_log_and_cleans_up() -> None:
    service = ServiceProcess({"VERIFIER_MODE": "no-such-mode"})
    with pytest.raises(RuntimeError, match="never started"):
        service.pid()
    service.start()
    try:
        with pytest.raises(NotReady, match=rf"(?s)port {service.port} exited.*no-such-mode"):
            service.wait_ready(startup_s=60)
    finally:
        service.stop()
    assert not service.log_path.exists()  # a temporary log goes with the process


def test_a_free_port_is_below_the_kernels_ephemeral_range_and_free() -> None:
    """The kernel hands ephemeral ports to other programs (a bind to port 0, an outgoing
    connection), so one picked now could be taken before the server binds it."""
    start = launcher._ephemeral_start()
    ports = {free_port() for _ in range(20)}
    if start > launcher._LOWEST_PORT:
        assert all(launcher._LOWEST_PORT <= port < start for port in ports), (start, ports)
    for port in ports:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))  # free: binding it does not raise
    assert len(ports) > 1  # drawn at random, not one port for every server
