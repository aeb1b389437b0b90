"""Assembly of the q script run for one test."""

from __future__ import annotations

import re

# A trailing ``exit 0;`` (or ``\\``) in the solution would end q before the test runs.
_TRAILING_EXIT = re.compile(r"(?:\s*(?:exit\s+0\s*;?|\\\\)\s*)+\Z")

SCRIPT_NAME = "script.q"


def strip_trailing_exit(solution: str) -> str:
    return _TRAILING_EXIT.sub("", solution.rstrip())


def build_script(solution: str, test_code: str | None) -> str:
    """Solution (trailing exit removed) + test code + ``exit 0;``."""
    return f"{strip_trailing_exit(solution)}\n{test_code or ''}\nexit 0;\n"


def q_argv(q_bin: str, workspace_mb: int) -> list[str]:
    # -q: no banner/prompt; -w: workspace cap in MB (q reports 'wsfull / -w abort).
    return [q_bin, SCRIPT_NAME, "-q", "-w", str(workspace_mb)]
