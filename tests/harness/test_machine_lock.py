"""One holder at a time across processes, as two pytest-xdist workers are."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from harness import machine_lock
from harness.compose_files import ROOT

HOLD = (
    "import sys\nfrom harness import machine_lock\nwith machine_lock.held(sys.argv[1]):\n    pass\n"
)


def test_a_second_process_waits_until_the_first_lets_go() -> None:
    name = f"test-{os.getpid()}"
    with machine_lock.held(name):
        other = subprocess.Popen([sys.executable, "-c", HOLD, name], cwd=ROOT)
        time.sleep(1.0)
        assert other.poll() is None  # still waiting for the lock
    assert other.wait(timeout=30) == 0  # it got the lock once this process let go
    with machine_lock.held(name):  # and left it free
        pass
