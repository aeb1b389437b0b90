"""Building the bubblewrap command line for a warm worker."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
# Only what the dynamic loader and libc need from /etc: no passwd/shadow/hosts/ssl.
_ETC_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
)
_TOP_LEVEL_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
QLIC_SRC = "/run/qlic-src"
QLIC = "/run/qlic"
SCRATCH = "/tmp"


@dataclass(frozen=True)
class BwrapPlan:
    bwrap_bin: str
    ro_paths: Sequence[str] = ()
    tmpfs_mb: int = 64
    license_dir: str | None = None
    # True when bwrap runs as real root: no user namespace (it would map the sandbox to host
    # root); the worker drops to an unprivileged uid itself, keeping only the caps for that.
    as_root: bool = False
    env: dict[str, str] = field(default_factory=dict)


def _minimal(paths: Iterable[str]) -> list[str]:
    """Drop paths already covered by a parent in the list, or by /usr."""
    out: list[str] = []
    for p in sorted({os.path.normpath(p) for p in paths}):
        if p == "/" or p == "/usr" or p.startswith("/usr/"):
            continue
        if any(p == q or p.startswith(q.rstrip("/") + "/") for q in out):
            continue
        out.append(p)
    return out


def _ancestors(paths: Iterable[str]) -> list[str]:
    out: set[str] = set()
    for p in paths:
        d = os.path.dirname(os.path.normpath(p))
        while d not in ("/", "") and not d.startswith("/usr"):
            out.add(d)
            d = os.path.dirname(d)
    return sorted(out)


def bwrap_argv(plan: BwrapPlan) -> list[str]:
    a = [plan.bwrap_bin]
    if plan.as_root:
        a += [
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--cap-add",
            "CAP_CHOWN",
        ]
    else:
        a += ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    a += [
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--hostname",
        "sandbox",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for top in _TOP_LEVEL_LINKS:
        if os.path.islink(top):
            a += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            a += ["--ro-bind", top, top]
    for etc in _ETC_FILES:
        a += ["--ro-bind-try", etc, etc]
    # The scratch tmpfs goes first: a host path under /tmp (a checkout in /tmp/x with its
    # venv) is then bound on top of it instead of being hidden by it.
    a += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(plan.tmpfs_mb * 1024 * 1024),
        "--tmpfs",
        SCRATCH,
    ]
    for p in _minimal(plan.ro_paths):
        a += ["--ro-bind", p, p]
    if plan.license_dir:
        a += [
            "--ro-bind",
            plan.license_dir,
            QLIC_SRC,
            "--size",
            str(4 * 1024 * 1024),
            "--tmpfs",
            QLIC,
        ]
    # bwrap creates the parents of mount points 0700; the job uid must traverse them.
    dests = [*_minimal(plan.ro_paths), *_ETC_FILES]
    if plan.license_dir:
        dests += [QLIC_SRC, QLIC]
    for d in _ancestors(dests):
        a += ["--chmod", "0755", d]
    a += ["--remount-ro", "/", "--clearenv"]
    env = {
        "PATH": SANDBOX_PATH,
        "HOME": SCRATCH,
        "LANG": "C.UTF-8",
        "USER": "sandbox",
        "LOGNAME": "sandbox",
        **plan.env,
    }
    for k, v in env.items():
        a += ["--setenv", k, v]
    a += ["--chdir", SCRATCH, "--"]
    return a
