"""The sandbox's languages, registered by name: each is one runner behind
``language_runner.LanguageRunner``. A new language is a ``Language`` member, its runner
and one line here."""

from __future__ import annotations

from .language_runner import LanguageRunner, Workers
from .models import Language
from .python_runner import PythonRunner
from .q_runner import QRunner

RUNNERS: dict[Language, type[LanguageRunner]] = {
    Language.PYTHON: PythonRunner,
    Language.Q: QRunner,
}


def start_runners(workers: Workers) -> dict[Language, LanguageRunner]:
    """One runner per registered language, sharing ``workers``."""
    return {language: runner(workers) for language, runner in RUNNERS.items()}
