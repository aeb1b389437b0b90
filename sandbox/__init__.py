"""Isolated execution of model-written code (Python, q) against test cases.

Standalone library: the web service calls :class:`Sandbox`; nothing here imports the
service. See docs/sandbox.md for the isolation model.
"""

from .config import SandboxConfig
from .errors import SandboxUnavailable
from .models import Failure, Isolation, Language, Limits, TestCase, TestOutcome
from .runner import Sandbox

__all__ = [
    "Failure",
    "Isolation",
    "Language",
    "Limits",
    "Sandbox",
    "SandboxConfig",
    "SandboxUnavailable",
    "TestCase",
    "TestOutcome",
]
