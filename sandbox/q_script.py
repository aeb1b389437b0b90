"""Assembly of the q script run for one test, and the completion proof it prints."""

from __future__ import annotations

import re

# A trailing ``exit 0;`` (or ``\\``) in the solution would end q before the test runs.
_TRAILING_EXIT = re.compile(r"(?:\s*(?:exit\s+0\s*;?|\\\\)\s*)+\Z")

SCRIPT_NAME = "script.q"


def strip_trailing_exit(solution: str) -> str:
    return _TRAILING_EXIT.sub("", solution.rstrip())


def build_script(solution: str, test_code: str | None, proof: str | None = None) -> str:
    """Solution (trailing exit removed) + test code (+ a line printing ``proof``) +
    ``exit 0;``. The proof line runs only if q reached the end of the test: a solution
    that exits early (``exit 0`` anywhere in it) never prints it."""
    end = f'-1 "{proof}";\n' if proof is not None else ""
    return f"{strip_trailing_exit(solution)}\n{test_code or ''}\n{end}exit 0;\n"


def take_proof(stdout: str, proof: str) -> str | None:
    """``stdout`` without its last line when that line is ``proof``; None without it."""
    lines = stdout.rstrip("\n").split("\n")
    if not lines or lines[-1].rstrip("\r") != proof:
        return None
    return "\n".join(lines[:-1]) + ("\n" if len(lines) > 1 else "")


def q_argv(q_bin: str, workspace_mb: int) -> list[str]:
    # -q: no banner/prompt; -w: workspace cap in MB (q reports 'wsfull / -w abort).
    return [q_bin, SCRIPT_NAME, "-q", "-w", str(workspace_mb)]
