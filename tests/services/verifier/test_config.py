"""The LLM verifier's config: the settings section the client takes as it is."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from services.contract.http_policy import HttpPolicy
from services.contract.protocol import VerdictSource
from services.verifier.config import (
    HTTP_FIELDS,
    RUBRIC_TEMPLATE,
    RUBRIC_VERDICT_TEMPLATE,
    TINYV_QWEN3_TEMPLATE,
    TINYV_TEMPLATE,
    VERIFIER_HTTP,
    VerifierConfig,
)


def test_no_url_means_no_servers() -> None:
    assert VerifierConfig().base_urls == ()
    assert VerifierConfig(url=" , ").base_urls == ()


def test_urls_are_server_roots_in_order() -> None:
    config = VerifierConfig(url="http://a:8000/v1/, http://b:9000")
    assert config.base_urls == ("http://a:8000", "http://b:9000")


def test_the_http_policy_defaults_are_the_verifiers_not_a_service_clients() -> None:
    config = VerifierConfig(url="http://a:1")
    assert config.http == VERIFIER_HTTP
    assert config.http != HttpPolicy()  # a client of the service waits longer, retries more


def test_policy_fields_at_the_section_level_update_only_themselves() -> None:
    config = VerifierConfig(url="http://a:1", retries="4", backoff_max_s=1.5)
    assert (config.http.retries, config.http.backoff_max_s) == (4, 1.5)
    unchanged = {name for name in HTTP_FIELDS if name not in ("retries", "backoff_max_s")}
    for name in unchanged:
        assert getattr(config.http, name) == getattr(VERIFIER_HTTP, name), name


def test_section_level_fields_apply_over_a_given_policy() -> None:
    given = dataclasses.replace(VERIFIER_HTTP, timeout_s=99.0, retries=9)
    config = VerifierConfig(url="http://a:1", http=given, retries=0)
    assert (config.http.timeout_s, config.http.retries) == (99.0, 0)


def test_the_busy_wait_is_not_a_section_setting() -> None:
    # The transport counts a 429 as an attempt: a busy wait would do nothing there.
    assert "busy_wait_s" not in HTTP_FIELDS
    config = VerifierConfig(url="http://a:1", busy_wait_s=1.0)
    assert config.http.busy_wait_s == VERIFIER_HTTP.busy_wait_s


def test_an_invalid_policy_value_is_refused_naming_http() -> None:
    with pytest.raises(ValidationError, match="http"):
        VerifierConfig(url="http://a:1", timeout_s=-1)


@pytest.mark.parametrize("field", ["max_batch", "max_concurrency"])
def test_counts_must_be_positive(field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        VerifierConfig.model_validate({"url": "http://a:1", field: 0})


def test_a_cache_size_of_zero_is_allowed_and_a_negative_one_is_refused() -> None:
    assert VerifierConfig.model_validate({"url": "http://a:1", "cache_size": 0}).cache_size == 0
    with pytest.raises(ValidationError, match="cache_size"):
        VerifierConfig.model_validate({"url": "http://a:1", "cache_size": -1})


def test_templates_resolve_by_name_or_are_the_text_given() -> None:
    default = VerifierConfig()
    assert default.verdict_prompt == TINYV_TEMPLATE
    assert default.rubric_verdict_prompt == RUBRIC_VERDICT_TEMPLATE
    assert default.grading_prompt == RUBRIC_TEMPLATE
    assert VerifierConfig(template="tinyv-qwen3").verdict_prompt == TINYV_QWEN3_TEMPLATE
    custom = "Is {answer} the same as {reference}?"
    assert VerifierConfig(template=custom).verdict_prompt == custom


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("template", "tinyv-7b"),  # no such preset, and no {answer}
        ("rubric_template", "grade this"),
        ("grading_template", "Grade {answer}"),  # grading needs {response}
    ],
)
def test_unknown_templates_are_refused(field: str, value: str) -> None:
    with pytest.raises(ValidationError, match="neither a preset"):
        VerifierConfig.model_validate({field: value})


def test_scoring_and_verdict_source_take_only_their_values() -> None:
    assert VerifierConfig(verdict_source="rubric").verdict_source is VerdictSource.RUBRIC
    with pytest.raises(ValidationError, match="scoring"):
        VerifierConfig.model_validate({"scoring": "probability"})


def test_the_config_is_frozen_and_hides_its_key() -> None:
    config = VerifierConfig(url="http://a:1", api_key="sk-secret")
    assert "sk-secret" not in repr(config)
    with pytest.raises(ValidationError):
        config.url = "http://b:1"  # type: ignore[misc]
