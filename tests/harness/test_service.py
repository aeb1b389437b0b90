"""``running_replicas``: replicas started together (start-ups overlap), all ready before
the block runs, all stopped after it, and when one never gets ready.

The replicas are real child processes, but a stand-in for the service: the command's
``wrapper`` runs a small HTTP server on the replica's port instead of uvicorn, so each
start-up takes a known time. The real service under ``running_replicas`` is exercised by
tests/deploy/test_gateway.py and test_gateway_backpressure.py."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import httpx
import pytest

from harness.service import running_replicas
from services.launcher import NotReady

pytestmark = pytest.mark.timeout(60)

# argv after -c: the service command, whose --port names the port to listen on. The first
# to create ``first`` serves; with ``only_first`` the others exit at once.
STAND_IN = """
import os, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
first, only_first = sys.argv[1], sys.argv[2] == "1"
port = int(sys.argv[sys.argv.index("--port") + 1])
mine = f"{first}.{os.getpid()}"
with open(mine, "w") as f:
    f.write(str(os.getpid()))
try:
    os.link(mine, first)  # atomic: ``first`` never exists without the pid in it
except FileExistsError:
    if only_first:
        sys.exit(3)
time.sleep(1.0)
class Ready(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(str(os.getpid()).encode())
    def log_message(self, *args):
        pass
HTTPServer(("127.0.0.1", port), Ready).serve_forever()
"""


def stand_in(first: Path, only_first: bool) -> list[str]:
    return [sys.executable, "-c", STAND_IN, str(first), "1" if only_first else "0"]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ")[1].startswith("Z")


def test_replicas_start_together_are_all_ready_and_are_stopped_after(tmp_path: Path) -> None:
    started = time.monotonic()
    with running_replicas(3, wrapper=stand_in(tmp_path / "first", False)) as replicas:
        elapsed = time.monotonic() - started
        pids = [int(httpx.get(f"{r.url}/ready").text) for r in replicas]
        assert len(set(pids)) == 3 and len({r.port for r in replicas}) == 3
        assert pids == [r.pid() for r in replicas]
    # Three start-ups of 1 s each, overlapping: well under the 3 s of one after another.
    assert 1.0 <= elapsed < 2.5
    assert all(gone(pid) for pid in pids)
    assert not any(r.log_path.exists() for r in replicas)  # temporary logs removed


def test_a_replica_that_never_gets_ready_stops_all_of_them(tmp_path: Path) -> None:
    first = tmp_path / "first"
    with (
        pytest.raises(NotReady, match=r"exited during start-up \(rc=3\)"),
        running_replicas(2, wrapper=stand_in(first, True)),
    ):
        pytest.fail("the block ran although a replica never got ready")
    assert gone(int(first.read_text()))  # the one that did start was stopped
