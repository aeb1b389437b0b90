"""Service settings: one typed object, read from ``VERIFIER_*`` environment variables."""

from __future__ import annotations

import os
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.protocol import Mode


class Settings(BaseSettings):
    # Blank variables (compose passes ${VAR:-} as "") mean "unset", not "empty string": an
    # empty API key would otherwise demand an empty bearer token on every request.
    model_config = SettingsConfigDict(env_prefix="VERIFIER_", extra="ignore", env_ignore_empty=True)

    api_key: SecretStr | None = Field(
        None, description="When set, scoring routes require 'Authorization: Bearer <key>'."
    )
    mode: Mode = Field(Mode.RULE, description="Default judge mode when a request names none.")
    llm_url: str | None = Field(
        None, description="LLM verifier (vLLM OpenAI server) base URL(s), comma-separated."
    )
    llm_model: str | None = Field(None, description="Model name served by the LLM verifier.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the LLM verifier.")
    llm_scoring: Literal["logprob", "text"] = Field(
        "logprob",
        description="logprob: P(True)/(P(True)+P(False)) from token logprobs; "
        "text: a constrained True/False answer.",
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
