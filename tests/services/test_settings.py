from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.protocol import ExtractionPolicy, Mode, VerdictSource
from services.settings import Settings


def test_blank_variables_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_API_KEY", "")
    monkeypatch.setenv("VERIFIER_LLM_URL", "")
    monkeypatch.setenv("VERIFIER_MODE", "")
    settings = Settings()
    assert settings.api_key is None and settings.llm_url is None
    assert settings.mode is Mode.RULE


def test_values_are_read_with_the_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_API_KEY", "k")
    monkeypatch.setenv("VERIFIER_MODE", "addon")
    monkeypatch.setenv("VERIFIER_MATH_WORKERS", "3")
    settings = Settings()
    assert settings.api_key is not None and settings.api_key.get_secret_value() == "k"
    assert (settings.mode, settings.math_workers) == (Mode.ADDON, 3)


def test_extraction_policy_defaults_to_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERIFIER_EXTRACTION", raising=False)
    assert Settings().extraction is ExtractionPolicy.MARKED
    monkeypatch.setenv("VERIFIER_EXTRACTION", "boxed")
    assert Settings().extraction is ExtractionPolicy.BOXED


def test_verifier_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_MODE", "tinyv_only")
    monkeypatch.setenv("VERIFIER_LLM_VERDICT_SOURCE", "rubric")
    monkeypatch.setenv("VERIFIER_LLM_TEMPLATE", "tinyv-qwen3")
    settings = Settings()
    assert settings.mode is Mode.VERIFIER_ONLY
    assert settings.llm_verdict_source is VerdictSource.RUBRIC
    monkeypatch.setenv("VERIFIER_LLM_TEMPLATE", "no such preset")
    with pytest.raises(ValidationError, match="neither a preset"):
        Settings()
