"""The sandbox's languages are a registry: one runner per language, registered by name."""

from __future__ import annotations

from sandbox import Language, Sandbox, SandboxConfig
from sandbox.language_runner import LanguageRunner
from sandbox.languages import RUNNERS


def test_every_language_has_one_runner_registered_by_its_name() -> None:
    assert set(RUNNERS) == set(Language)
    for language, runner in RUNNERS.items():
        assert issubclass(runner, LanguageRunner) and runner.language is language


def test_a_sandbox_runs_each_language_through_its_registered_runner() -> None:
    with Sandbox(SandboxConfig(workers=1)) as sandbox:
        runners = sandbox._runners
        assert {language: type(runner) for language, runner in runners.items()} == RUNNERS
