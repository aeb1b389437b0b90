"""The one interface behind which each language runs its tests in the sandbox.

A language is a :class:`LanguageRunner` registered by name in ``sandbox/languages.py``
(Python: ``sandbox/python_runner.py``; q: ``sandbox/q_runner.py``). The sandbox
(``sandbox/runner.py``) owns what every language shares: the warm worker pools, their
bubblewrap plan, the fair scheduler and the sandbox's Python. A runner says what its
workers need besides (:meth:`LanguageRunner.worker_setup`) and turns a program and its
tests into jobs and their replies into outcomes (:meth:`LanguageRunner.run_tests`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, TypeVar

from .config import SandboxConfig
from .frames import Job, JobLimits, Reply
from .interpreter import PythonInfo
from .models import Language, Limits, TestCase, TestOutcome
from .pool import WorkerPool

T = TypeVar("T")


@dataclass(frozen=True)
class WorkerSetup:
    """What a language's workers need beyond the sandbox's Python."""

    mounts: tuple[str, ...] = ()  # read-only in the sandbox
    license_dir: str | None = None  # copied into each worker for its jobs (q's licence)
    uid_offset: int = 0  # above ``uid_base`` under bubblewrap: a uid range of its own


@dataclass(frozen=True)
class Turn:
    """One ``Sandbox.run_tests`` call as its runner sees it."""

    flow: Hashable  # the request's flow in the fair scheduler
    run: Callable[[Job], Awaitable[Reply]]  # a job on the language's workers, in the turn


class Workers(Protocol):
    """What the sandbox lends its language runners."""

    @property
    def config(self) -> SandboxConfig: ...

    def python(self) -> PythonInfo:
        """The sandbox's Python (probed once; blocking)."""
        ...

    def pool(self, language: Language, uid_shift: int) -> WorkerPool:
        """Another pool of the language's workers, ``uid_shift`` uids above its own
        (blocking); the sandbox closes it. SandboxUnavailable once closed."""
        ...

    def submit(self, flow: Hashable, pool: WorkerPool, job: Job, wall_s: float) -> Awaitable[Reply]:
        """A job on ``pool`` in ``flow``'s turn."""
        ...

    def blocking(self, call: Callable[[], T]) -> Awaitable[T]:
        """``call()`` on the sandbox's threads, off the event loop."""
        ...


class LanguageRunner(ABC):
    """One language's way through the sandbox."""

    language: ClassVar[Language]

    def __init__(self, workers: Workers) -> None:
        self.workers = workers

    @abstractmethod
    def worker_setup(self) -> WorkerSetup:
        """What this language's workers need (blocking; the sandbox asks once per pool).
        SandboxUnavailable when the language cannot run here."""

    @abstractmethod
    async def run_tests(
        self, program: str, tests: Sequence[TestCase], limits: Limits, turn: Turn
    ) -> list[TestOutcome]:
        """One outcome per test, in order; never raises because of the program."""

    async def warm(self) -> None:
        """Start what the first request would otherwise wait for, besides the workers."""
        return None

    def close(self) -> None:
        """Release what the runner holds (the sandbox closes the pools)."""
        return None


def job_limits(limits: Limits) -> JobLimits:
    """A job's limits as its frame carries them."""
    return {
        "wall_s": limits.wall_s,
        "cpu_s": limits.cpu_s,
        "memory_mb": limits.memory_mb,
        "max_processes": limits.max_processes,
        "max_output_bytes": limits.max_output_bytes,
        "max_file_bytes": limits.max_file_bytes,
        "max_open_files": limits.max_open_files,
    }
