from __future__ import annotations

from functools import reduce
from typing import Any

import pytest
from pydantic import ValidationError

from sandbox import Isolation
from services.contract.protocol import ExtractionPolicy, Mode, VerdictSource
from services.settings import Settings, variables
from services.verifier import RUBRIC_TEMPLATE
from services.verifier.config import VERIFIER_HTTP, VerifierConfig


def test_blank_variables_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_API_KEY", "")
    monkeypatch.setenv("VERIFIER_LLM_URL", "")
    monkeypatch.setenv("VERIFIER_MODE", "")
    settings = Settings()
    assert settings.api_key is None and settings.llm.url is None
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
    assert settings.llm.verdict_source is VerdictSource.RUBRIC
    monkeypatch.setenv("VERIFIER_LLM_TEMPLATE", "no such preset")
    with pytest.raises(ValidationError, match="neither a preset"):
        Settings()


def test_sandbox_section_reads_q_and_sandbox_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "Q_BIN": "/opt/kx/l64/q",
        "QHOME": "/opt/kx",
        "QLIC": "/lic",
        "KDB_LICENSE_B64": "a2M=",
        "KDB_K4LICENSE_B64": "azQ=",
        "VERIFIER_SANDBOX_ISOLATION": "none",
        "VERIFIER_SANDBOX_WORKERS": "3",
        "VERIFIER_SANDBOX_TMPFS_MB": "32",
    }.items():
        monkeypatch.setenv(name, value)
    cfg = Settings().sandbox
    assert (cfg.q_bin, cfg.q_home, cfg.q_license_dir) == ("/opt/kx/l64/q", "/opt/kx", "/lic")
    assert cfg.q_license_b64 is not None and cfg.q_k4_license_b64 is not None
    licenses = (cfg.q_license_b64.get_secret_value(), cfg.q_k4_license_b64.get_secret_value())
    assert licenses == ("a2M=", "azQ=")
    assert cfg.isolation is Isolation.NONE and cfg.workers == 3 and cfg.tmpfs_mb == 32


def test_sandbox_without_q_variables_has_no_q(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("Q_BIN", "QHOME", "QLIC", "KDB_LICENSE_B64", "KDB_K4LICENSE_B64"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VERIFIER_SANDBOX_ISOLATION", "BWRAP")  # any case, as before
    cfg = Settings().sandbox
    assert cfg.q_bin is None and cfg.q_license_dir is None
    assert cfg.isolation is Isolation.BWRAP


def test_invalid_sandbox_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_SANDBOX_ISOLATION", "docker")
    with pytest.raises(ValidationError, match=r"sandbox\.isolation"):
        Settings()


# A value other than the default for every variable of the LLM verifier's section.
_LLM_VALUES = {
    "VERIFIER_LLM_URL": "http://a:8000/v1, http://b:8000",
    "VERIFIER_LLM_MODEL": "judge",
    "VERIFIER_LLM_API_KEY": "secret",
    "VERIFIER_LLM_SCORING": "text",
    "VERIFIER_LLM_VERDICT_SOURCE": "rubric",
    "VERIFIER_LLM_TEMPLATE": "tinyv-qwen3",
    "VERIFIER_LLM_RUBRIC_TEMPLATE": "Is {answer} right? Total Score: X/10",
    "VERIFIER_LLM_GRADING_TEMPLATE": "Grade {response} for {question} by {rubric}",
    "VERIFIER_LLM_TRUE_LABEL": "Yes",
    "VERIFIER_LLM_FALSE_LABEL": "No",
    "VERIFIER_LLM_CHAT_FORMAT": "none",
    "VERIFIER_LLM_MAX_CONCURRENCY": "9",
    "VERIFIER_LLM_MAX_BATCH": "7",
    "VERIFIER_LLM_CONNECT_TIMEOUT_S": "1.5",
    "VERIFIER_LLM_TIMEOUT_S": "12",
    "VERIFIER_LLM_RETRIES": "0",
    "VERIFIER_LLM_BACKOFF_S": "0.5",
    "VERIFIER_LLM_BACKOFF_MAX_S": "2",
    "VERIFIER_LLM_BREAKER_FAILURES": "5",
    "VERIFIER_LLM_BREAKER_RESET_S": "30",
    "VERIFIER_LLM_CACHE_SIZE": "10",
    "VERIFIER_LLM_RUBRIC_MAX_TOKENS": "100",
    "VERIFIER_LLM_THINKING": "true",
    "VERIFIER_LLM_THINKING_MAX_TOKENS": "64",
    "VERIFIER_LLM_EXTRA_HEADERS": '{"X-Team": "rl"}',
}


def _at(settings: Settings, path: str) -> Any:
    return reduce(getattr, path.split("."), settings)


def test_every_verifier_variable_reaches_the_client_config(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    llm = [variable for variable in variables() if variable.section == "llm"]
    assert sorted(variable.env for variable in llm) == sorted(_LLM_VALUES)
    for name, value in _LLM_VALUES.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    unchanged = [v.env for v in llm if _at(settings, v.path) == v.default]
    assert unchanged == []
    config = settings.llm
    assert config.base_urls == ("http://a:8000", "http://b:8000")
    assert config.api_key is not None and config.api_key.get_secret_value() == "secret"
    assert (config.scoring, config.chat_format) == ("text", "none")
    # The HTTP policy the transport takes whole, from the section's own variables.
    http = (config.http.retries, config.http.timeout_s, config.http.connect_timeout_s)
    assert http == (0, 12.0, 1.5)
    assert config.extra_headers == {"X-Team": "rl"}
    assert config.grading_prompt == _LLM_VALUES["VERIFIER_LLM_GRADING_TEMPLATE"]


def test_http_fields_given_to_the_config_directly_land_in_its_policy() -> None:
    config = VerifierConfig(url="http://a:1", timeout_s=9.0, retries=7)
    assert config.http.timeout_s == 9.0 and config.http.retries == 7
    assert config.http.backoff_s == VERIFIER_HTTP.backoff_s  # the rest: the verifier's own
    assert VerifierConfig(url="http://a:1").http == VERIFIER_HTTP
    assert "timeout_s" not in VerifierConfig.model_fields  # one place for it: http


def test_verifier_defaults_are_the_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _LLM_VALUES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VERIFIER_LLM_URL", "http://a:8000")
    config = Settings().llm
    assert config == VerifierConfig(url="http://a:8000")
    assert config.grading_prompt == RUBRIC_TEMPLATE
    monkeypatch.delenv("VERIFIER_LLM_URL")
    assert Settings().llm.base_urls == ()


def test_the_vllm_services_variables_do_not_disturb_the_service(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # compose's vLLM service reads these; a shell that exports them all still starts.
    for name, value in {"VERIFIER_LLM_TP": "2", "VERIFIER_LLM_MAX_LEN": "4096"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("VERIFIER_LLM_API_KEY", "")
    assert Settings().llm.api_key is None


def test_invalid_grading_template_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_LLM_GRADING_TEMPLATE", "no placeholder")
    with pytest.raises(ValidationError, match="neither a preset"):
        Settings()


def test_every_variable_has_one_name_and_a_description() -> None:
    found = list(variables())
    names = [v.env for v in found]
    assert len(names) == len(set(names))
    assert all(v.info.description for v in found), [v.env for v in found if not v.info.description]
    for documented in ("VERIFIER_LLM_URL", "VERIFIER_SANDBOX_BWRAP", "Q_BIN", "QLIC"):
        assert documented in names
