"""Start the reward service as a child process on a free loopback port (``service.url: auto``).

The trainer still talks to it only over HTTP, exactly as to a remote replica; this just
makes the CPU demo one command. The child is stopped when the block exits.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from services.launcher import NotReady, running_service

log = logging.getLogger(__name__)


@contextmanager
def local_service(startup_timeout_s: float = 120.0, log_dir: Path | None = None) -> Iterator[str]:
    """Run the service and yield its base URL once ready (log kept in ``log_dir``)."""
    log_path = log_dir / "service.log" if log_dir is not None else None
    try:
        with running_service(startup_s=startup_timeout_s, log_path=log_path) as url:
            log.info("started the reward service at %s (log: %s)", url, log_path or "temporary")
            yield url
    except NotReady as exc:
        raise RuntimeError(
            f"the reward service did not start (is the [service] extra installed?): {exc}"
        ) from exc
