"""Orphan handling in the process that owns the workers (the service)."""

from __future__ import annotations

import ctypes
import os
from collections.abc import Container

PR_SET_CHILD_SUBREAPER = 36
# Names our sandbox processes carry (the worker sets its comm; bwrap keeps its own).
_OUR_COMMS = (b"sbx-worker", b"bwrap")


def become_subreaper() -> bool:
    """Make orphaned descendants re-parent to this process instead of host PID 1."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _stat(pid: int) -> tuple[bytes, bytes, int] | None:
    """(comm, state, ppid) of ``pid``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    comm = raw[raw.index(b"(") + 1 : raw.rindex(b")")]
    rest = raw[raw.rindex(b")") + 2 :].split()
    return comm, rest[0], int(rest[1])


def reap_adopted(skip: Container[int]) -> int:
    """Reap zombie sandbox processes that were re-parented to us.

    Only zombies named like our own processes are collected, and never a pid in ``skip``
    (children whose status a Popen object still wants), so other code's children are left
    to whoever waits for them. Returns how many were reaped.
    """
    me = os.getpid()
    reaped = 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in skip:
            continue
        st = _stat(int(name))
        if st is None or st[2] != me or st[1] != b"Z" or st[0] not in _OUR_COMMS:
            continue
        try:
            if os.waitpid(int(name), os.WNOHANG)[0]:
                reaped += 1
        except ChildProcessError:
            pass
    return reaped
