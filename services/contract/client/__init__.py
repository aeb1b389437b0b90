"""Python clients of the reward service, and the same grading without a server.

* :class:`Client` / :class:`AsyncClient`: ``score(items, options)``, ``grade(answer,
  reference, ...)``, ``health()``, ``ready()`` over HTTP, with typed results, retries, 429
  handling and one pooled connection.
* :class:`LocalGrader` / :func:`grade_local`: the service's judges in this process (same
  verdicts as ``/grade``), started on first use.

Importing this package loads no part of the server (no web app, math parser or sandbox).
"""

from services.contract.client.http import AsyncClient, Client
from services.contract.client.local import LocalGrader, grade_local
from services.contract.client.settings import ClientSettings, RewardServiceError
from services.contract.protocol import (
    ExtractionPolicy,
    GradeResponse,
    HealthResponse,
    Mode,
    ReadyResponse,
    RewardOptions,
    ScoreResult,
    Status,
)

__all__ = [
    "AsyncClient",
    "Client",
    "ClientSettings",
    "ExtractionPolicy",
    "GradeResponse",
    "HealthResponse",
    "LocalGrader",
    "Mode",
    "ReadyResponse",
    "RewardOptions",
    "RewardServiceError",
    "ScoreResult",
    "Status",
    "grade_local",
]
