"""Start the reward service as a child process on a free loopback port (``service.url: auto``).

The trainer still talks to it only over HTTP, exactly as to a remote replica; this just
makes the CPU demo one command. The child is stopped when the block exits. Its log (start-up,
one line per request, warnings) is kept in ``output_dir/service.log``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from services.launcher import NotReady, ServiceProcess

log = logging.getLogger(__name__)

SERVICE_LOG = "service.log"


@contextmanager
def local_service(startup_timeout_s: float = 120.0, log_dir: Path | None = None) -> Iterator[str]:
    """Run the service and yield its base URL once ready (log kept in ``log_dir``)."""
    log_path = log_dir / SERVICE_LOG if log_dir is not None else None
    service = ServiceProcess(log_level="info", log_path=log_path)
    try:
        service.start()
        service.wait_ready(startup_timeout_s)
        log.info("started the reward service at %s (log: %s)", service.url, log_path or "temporary")
        yield service.url
    except NotReady as exc:
        raise RuntimeError(
            f"the reward service did not start (is the [service] extra installed?): {exc}"
        ) from exc
    finally:
        service.stop()
