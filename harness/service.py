"""The real service in child processes on loopback ports, for tests and benchmarks."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from services.launcher import ServiceProcess, free_port, running_service

__all__ = ["ServiceProcess", "free_port", "running_replicas", "running_service"]


@contextmanager
def running_replicas(
    count: int, env: dict[str, str] | None = None, wrapper: Sequence[str] = ()
) -> Iterator[list[ServiceProcess]]:
    """``count`` replicas started together (their start-ups overlap), all ready."""
    replicas = [ServiceProcess(env, wrapper=wrapper) for _ in range(count)]
    try:
        for replica in replicas:
            replica.start()
        for replica in replicas:
            replica.wait_ready()
        yield replicas
    finally:
        for replica in replicas:
            replica.stop()
