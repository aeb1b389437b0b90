"""Isolated execution of model-written code (Python, q) against test cases.

Standalone library: the web service calls :class:`Sandbox`; nothing here imports the
service. See docs/sandbox.md for the isolation model.
"""

from .config import SandboxConfig
from .errors import SandboxUnavailable
from .models import Failure, Isolation, Language, Limits, TestCase, TestOutcome
from .runner import Sandbox
from .status import IsolationStatus, PoolStatus, PythonStatus, QStatus, SandboxStatus

__all__ = [
    "Failure",
    "Isolation",
    "IsolationStatus",
    "Language",
    "Limits",
    "PoolStatus",
    "PythonStatus",
    "QStatus",
    "Sandbox",
    "SandboxConfig",
    "SandboxStatus",
    "SandboxUnavailable",
    "TestCase",
    "TestOutcome",
]
