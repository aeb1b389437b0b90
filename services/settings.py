"""Service settings: one typed object, read from ``VERIFIER_*`` environment variables."""

from __future__ import annotations

import os
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.protocol import BACKENDS, ExtractionPolicy, Mode, VerdictSource
from services.verifier.config import RUBRIC_VERDICT_TEMPLATES, VERDICT_TEMPLATES, resolve_template


class Settings(BaseSettings):
    # Blank variables (compose passes ${VAR:-} as "") mean "unset", not "empty string": an
    # empty API key would otherwise demand an empty bearer token on every request.
    model_config = SettingsConfigDict(env_prefix="VERIFIER_", extra="ignore", env_ignore_empty=True)

    api_key: SecretStr | None = Field(
        None, description="When set, scoring routes require 'Authorization: Bearer <key>'."
    )
    mode: Mode = Field(
        Mode.RULE,
        description="Default judge mode when a request names none ('tinyv_only' = verifier_only).",
    )
    extraction: ExtractionPolicy = Field(
        ExtractionPolicy.MARKED,
        description="Default math answer extraction policy of /score and /get_reward "
        "(boxed | marked | lenient); /grade defaults to lenient.",
    )
    llm_url: str | None = Field(
        None,
        description="LLM verifier (vLLM OpenAI server) URL(s), comma-separated: "
        "http://host:port or http://host:port/v1.",
    )
    llm_model: str | None = Field(None, description="Model name served by the LLM verifier.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the LLM verifier.")
    llm_scoring: Literal["logprob", "text"] = Field(
        "logprob",
        description="logprob: P(True)/(P(True)+P(False)) from token logprobs; "
        "text: a constrained True/False answer.",
    )
    llm_verdict_source: VerdictSource = Field(
        VerdictSource.TINYV,
        description="How the served model judges answers in the modes: 'tinyv' (True/False) or "
        "'rubric' (a critique ending in 'Total Score: X/10', score min(10, X)/10).",
    )
    llm_template: str = Field(
        "tinyv-1.5b",
        description="Verdict prompt: 'tinyv-1.5b', 'tinyv-qwen3', or a template text with "
        "{question}, {reference}, {answer}, {true_label}, {false_label}.",
    )
    llm_rubric_template: str = Field(
        "rubric",
        description="Prompt of the 'rubric' verdict source: 'rubric' or a template text with "
        "{question}, {reference}, {answer}.",
    )
    llm_thinking: bool = Field(
        False,
        description="The verifier thinks before answering (TinyV *-Think): free text, verdict "
        "read after '</think>' or 'Answer:'.",
    )
    llm_thinking_max_tokens: int = Field(
        512, gt=0, description="Tokens a thinking verifier may write per verdict."
    )
    llm_timeout_s: float = Field(60.0, gt=0, description="Timeout of one verifier request.")
    llm_max_batch: int = Field(64, gt=0, description="Prompts per verifier request.")
    max_body_bytes: int = Field(
        64 * 1024 * 1024, gt=0, description="Larger request bodies get 413."
    )
    max_batch_items: int = Field(20_000, gt=0, description="Most items one request may carry.")
    math_workers: int = Field(
        default_factory=lambda: os.cpu_count() or 1,
        gt=0,
        description="Processes for symbolic math comparison.",
    )
    math_timeout_s: float = Field(
        3.0, gt=0, description="Hard deadline of one symbolic comparison; the worker is killed."
    )
    math_memory_mb: int = Field(
        2048, gt=64, description="Address-space limit of each math worker process."
    )
    batch_timeout_s: float = Field(
        300.0, gt=0, description="Items still unjudged after this get status 'timeout'."
    )
    cache_size: int = Field(200_000, ge=1, description="Entries in the math verdict LRU cache.")
    required_backends: str = Field(
        "math,sandbox",
        description="Backends that must work for /ready to answer 200, comma-separated, from "
        "math, sandbox, q, llm_verifier. A replica that cannot run what it is asked to score "
        "then leaves the gateway's and the probes' rotation; add q and llm_verifier where the "
        "replica is configured for them.",
    )

    @field_validator("required_backends")
    @classmethod
    def _known_backends(cls, value: str) -> str:
        names = [name.strip() for name in value.split(",") if name.strip()]
        unknown = sorted(set(names) - set(BACKENDS))
        if unknown:
            raise ValueError(f"unknown backends {unknown}; choose from {', '.join(BACKENDS)}")
        return ",".join(dict.fromkeys(names))

    def required(self) -> tuple[str, ...]:
        """``required_backends`` as names, in the order given."""
        return tuple(name for name in self.required_backends.split(",") if name)

    @field_validator("llm_template")
    @classmethod
    def _known_template(cls, value: str) -> str:
        resolve_template(value, VERDICT_TEMPLATES)
        return value

    @field_validator("llm_rubric_template")
    @classmethod
    def _known_rubric_template(cls, value: str) -> str:
        resolve_template(value, RUBRIC_VERDICT_TEMPLATES)
        return value
