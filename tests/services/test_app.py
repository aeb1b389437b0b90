"""The app factory: the service starts without deprecation warnings from its own code."""

from __future__ import annotations

import re
from pathlib import Path

from services.launcher import ServiceProcess

ROOT = Path(__file__).resolve().parents[2]
OWN_PACKAGES = ("services", "sandbox", "trainer", "harness")
# How Python prints a warning: "<file>:<line>: <Category>: <message>".
WARNING_LINE = re.compile(r"^(?P<file>\S+\.py):\d+: (?P<category>\w*Warning): ", re.MULTILINE)


def own_deprecations(log: str) -> list[str]:
    """The deprecation warnings in ``log`` that point at a file of our own packages
    (FastAPI's own category is a UserWarning subclass, so match the name)."""
    found = []
    for match in WARNING_LINE.finditer(log):
        path = Path(match["file"])
        own = path.is_relative_to(ROOT) and path.relative_to(ROOT).parts[0] in OWN_PACKAGES
        if own and "Deprecat" in match["category"]:
            found.append(match.group(0))
    return found


def test_the_pattern_finds_a_deprecation_in_our_code() -> None:
    log = (
        f"{ROOT}/services/api/compat.py:20: FastAPIDeprecationWarning: ORJSONResponse is...\n"
        "/usr/lib/python3/site-packages/x.py:3: DeprecationWarning: not ours\n"
        f"{ROOT}/services/app.py:9: RuntimeWarning: not a deprecation\n"
    )
    assert own_deprecations(log) == [
        f"{ROOT}/services/api/compat.py:20: FastAPIDeprecationWarning: "
    ]


def test_service_starts_without_deprecation_warnings_from_our_code(tmp_path: Path) -> None:
    # Every warning printed, once per place, whatever the interpreter's default filters.
    env = {"PYTHONWARNINGS": "always::DeprecationWarning,always::PendingDeprecationWarning,"
           "always::UserWarning"}  # fmt: skip
    service = ServiceProcess(env, log_path=tmp_path / "service.log")
    try:
        service.start()
        service.wait_ready()
    finally:
        service.stop()
    log = (tmp_path / "service.log").read_text(encoding="utf-8", errors="replace")
    assert own_deprecations(log) == [], log[-4000:]
