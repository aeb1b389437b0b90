"""Orphan handling: only zombies named like our sandbox processes are reaped."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from sandbox.reaper import become_subreaper, reap_adopted

# A child that names itself (its comm) as given, then exits: a zombie until waited for.
_NAMED_EXIT = "import ctypes, sys; ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)"


def _zombie(name: str) -> subprocess.Popen[bytes]:
    child = subprocess.Popen([sys.executable, "-c", _NAMED_EXIT, name])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with open(f"/proc/{child.pid}/stat", "rb") as stat:
            if stat.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                return child
        time.sleep(0.01)
    raise AssertionError(f"child {child.pid} did not exit")


def test_our_zombies_are_reaped_and_others_left_to_their_owner() -> None:
    ours = _zombie("sbx-worker")
    theirs = _zombie("not-ours")
    try:
        assert reap_adopted(skip=()) == 1
        assert not os.path.exists(f"/proc/{ours.pid}")  # collected
        assert os.path.exists(f"/proc/{theirs.pid}")  # still waiting for its Popen
    finally:
        theirs.wait()
        ours.returncode = 0  # reaped above: Popen must not wait for it again


def test_a_pid_in_skip_is_never_reaped() -> None:
    child = _zombie("bwrap")
    try:
        assert reap_adopted(skip={child.pid}) == 0
        assert os.path.exists(f"/proc/{child.pid}")
    finally:
        child.wait()


def test_this_process_can_become_a_subreaper() -> None:
    assert become_subreaper() is True
