"""Runs one q test on the q engine the pykx package ships (``libq.so``), inside the sandbox.

    python -I -S -c <this source> <libq.so> <q home> <workspace MB>

Standard library only (the repository and pykx's Python modules are not needed in the
sandbox: only the engine's folder is mounted). In the job's directory, which holds
``script.q`` (sandbox/q_script.py), it starts q the way pykx does (``qinit`` with q's
command-line flags, its home and the licence folder ``$QLIC``), then loads the script as
``q script.q`` would. What a q binary writes, this writes: the script's output on stdout, a
q error as ``'<error>`` on stderr, q's own licence messages as q prints them.

Exit status: the script's ``exit`` ends the process with its code (every script ends with
``exit 0;``); 0 after a q error (as q does once its script failed); 1 when q did not start
(its licence, the library); 3 when the script returned without q ending the process, so a
test that ``exit`` did not end can never look finished.
"""

import ctypes
import os
import sys

SCRIPT = "script.q"
K_ERROR = -128  # the type of a q error object
NOT_STARTED = 1
DID_NOT_EXIT = 3


class KObject(ctypes.Structure):
    """The head of q's K object (k.h): m, a, t, u, r, then the atom; an error's message
    is the symbol (char*) right after the head."""

    _fields_ = [
        ("m", ctypes.c_byte),
        ("a", ctypes.c_byte),
        ("t", ctypes.c_byte),
        ("u", ctypes.c_ubyte),
        ("r", ctypes.c_int),
        ("s", ctypes.c_char_p),
    ]


def q_flags(workspace_mb: int) -> list[bytes]:
    """q's command line: no banner (-q), the workspace cap (-w)."""
    return [b"q", b"-q", b"-w", str(workspace_mb).encode()]


def load_command(script: str = SCRIPT) -> bytes:
    """What q evaluates: load the script, as ``q script.q`` does at start-up."""
    return b"\\l " + script.encode()


def _say(text: str) -> None:
    os.write(2, text.encode("utf-8", "replace"))


def main(args: list[str]) -> int:
    libq_path, home, workspace = args[0], args[1], int(args[2])
    try:
        libq = ctypes.CDLL(libq_path, mode=ctypes.RTLD_GLOBAL)
    except OSError as exc:
        _say(f"sandbox: cannot load the q engine {libq_path}: {exc}\n")
        return NOT_STARTED
    libq.qinit.restype = ctypes.c_int
    libq.qinit.argtypes = [
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_char_p),
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_char_p,
    ]
    flags = q_flags(workspace)
    argv = (ctypes.c_char_p * len(flags))(*flags)
    licence = os.environ.get("QLIC", home)
    started = libq.qinit(len(flags), argv, home.encode(), licence.encode(), None)
    if started != 0:  # q has said why on stderr (e.g. "'... license error: k4.lic")
        _say(f"sandbox: q did not start (qinit returned {started})\n")
        return NOT_STARTED
    libq.k.restype = ctypes.POINTER(KObject)
    result = libq.k(0, load_command(), ctypes.c_void_p(None))
    if result and result.contents.t == K_ERROR:
        message = (result.contents.s or b"").decode("utf-8", "replace")
        _say(f"'{message}\n")
        return 0
    _say("sandbox: q returned from the script without ending at its exit\n")
    return DID_NOT_EXIT


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
