"""Outcomes of recent runs, reused across requests: GRPO steps resend identical programs.

The key is a digest of everything a verdict depends on: the language, the program, each
test (code, stdin, expected output), every limit and whether every test runs after a
timeout. The sandbox's own configuration (interpreter, isolation) is fixed for the life
of the process that holds the cache, so it is not part of the key.

Kept only when the run's verdict is the program's, not the moment's: never a run with a
sandbox error (the infrastructure failed), nor one that hit the wall-clock limit (under a
CPU-time verdict the wall clock is the backstop a loaded machine can reach), so a replay
never repeats what a retry could change.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import TTLCache

from sandbox import Failure, Language, Limits, TestCase, TestOutcome


@dataclass(frozen=True, slots=True)
class Run:
    """A program's test outcomes, and how many tests after them were skipped."""

    outcomes: list[TestOutcome]
    skipped: int


@dataclass(frozen=True, slots=True)
class RunKey:
    """What one run of a program's tests depends on."""

    language: Language
    program: str
    tests: tuple[TestCase, ...]
    limits: Limits
    every_test: bool

    def digest(self) -> str:
        text = json.dumps(
            [
                self.language.value,
                self.program,
                [[t.code, t.stdin, t.expected] for t in self.tests],
                dataclasses.asdict(self.limits),
                self.every_test,
            ],
            separators=(",", ":"),
        )
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def reusable(run: Run, limits: Limits) -> bool:
    """Whether another request may be given this run's outcomes."""
    return not any(
        o.failure is Failure.SANDBOX_ERROR
        or (o.failure is Failure.TIMEOUT and o.duration_s >= limits.wall_s)
        for o in run.outcomes
    )


class OutcomeCache:
    """A bounded LRU of runs whose entries expire after ``ttl_s`` (size 0: off)."""

    def __init__(
        self, size: int, ttl_s: float, on_lookup: Callable[[bool], None] | None = None
    ) -> None:
        self._runs: TTLCache[str, Run] | None = (
            TTLCache(maxsize=size, ttl=ttl_s) if size > 0 else None
        )
        self._on_lookup = on_lookup

    def get(self, key: RunKey) -> Run | None:
        if self._runs is None:
            return None
        found = self._runs.get(key.digest())
        if self._on_lookup is not None:
            self._on_lookup(found is not None)
        return found

    def holds(self, key: RunKey) -> bool:
        """Whether ``get`` would find the run (not counted as a lookup)."""
        return self._runs is not None and key.digest() in self._runs

    def put(self, key: RunKey, run: Run) -> None:
        if self._runs is not None and reusable(run, key.limits):
            self._runs[key.digest()] = run
