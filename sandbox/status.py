"""What ``Sandbox.status()`` reports: which isolation and languages work here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .models import Isolation, Language


@dataclass(frozen=True)
class IsolationStatus:
    level: Isolation
    ok: bool  # a worker started at this level
    reason: str  # why it works, or why not


@dataclass(frozen=True)
class PythonStatus:
    ok: bool
    version: str | None = None  # when ok
    bin: str | None = None  # when ok: the configured interpreter
    reason: str | None = None  # when not ok


@dataclass(frozen=True)
class QStatus:
    available: bool
    version: str | None = None  # when available: q's version and build date
    reason: str | None = None  # when not available
    warning: str | None = None  # when available: a licence caveat


@dataclass(frozen=True)
class PoolStatus:
    alive: int  # workers running now
    spawned: int  # started so far
    retired: int  # replaced so far (recycled or misbehaving)


@dataclass(frozen=True)
class SandboxStatus:
    isolation: IsolationStatus
    python: PythonStatus
    q: QStatus
    workers: Mapping[Language, PoolStatus]  # only languages used so far
    subreaper: bool  # orphans of workers re-parent to this process
