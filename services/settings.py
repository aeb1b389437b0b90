"""Service settings: one typed tree, read from the environment.

Top-level settings are ``VERIFIER_<NAME>``; the LLM verifier's are ``VERIFIER_LLM_<NAME>``
and the sandbox's ``VERIFIER_SANDBOX_<NAME>`` (nested sections); q's own variables keep the
names the kdb+ distribution documents (``Q_BIN``, ``QHOME``, ``QLIC``, ``KDB_*``). Each
section builds the config object of the part it sets (:class:`VerifierConfig`,
:class:`SandboxConfig`), so nothing deeper in the code reads the environment.
docs/configuration.md lists every variable (``python -m services.settings_reference``).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from sandbox import Isolation, SandboxConfig
from sandbox.config import default_q_bin
from services.protocol import BACKENDS, ExtractionPolicy, Mode, VerdictSource
from services.verifier.config import (
    RUBRIC_TEMPLATE,
    RUBRIC_VERDICT_TEMPLATES,
    VERDICT_TEMPLATES,
    VerifierConfig,
    parse_urls,
    resolve_template,
)

PREFIX = "VERIFIER_"
# Templates of rubric grading (``task: rubric``) by name; any other value is the template.
GRADING_TEMPLATES = {"rubric": RUBRIC_TEMPLATE}

_VERIFIER_DEFAULTS: dict[str, Any] = {
    field.name: field.default for field in dataclasses.fields(VerifierConfig)
}
_SANDBOX_DEFAULTS: dict[str, Any] = {
    field.name: field.default for field in dataclasses.fields(SandboxConfig)
}


def _cpu_count() -> int:
    return os.cpu_count() or 1


def _shown(text: str) -> dict[str, Any]:
    """What the reference shows as the default of a field whose default is computed."""
    return {"shown_default": text}


class LLMSettings(BaseModel):
    """The LLM verifier (vLLM's OpenAI server): ``VERIFIER_LLM_<NAME>``."""

    # Variables of the compose file's vLLM service share the prefix (VERIFIER_LLM_TP, ...).
    model_config = ConfigDict(extra="ignore")

    url: str | None = Field(
        None,
        description="LLM verifier (vLLM OpenAI server) URL(s), comma-separated: "
        "http://host:port or http://host:port/v1. Unset: no verifier.",
    )
    model: str | None = Field(
        None, description="Model name served by the LLM verifier; unset: the first it lists."
    )
    api_key: SecretStr | None = Field(None, description="API key for the LLM verifier.")
    scoring: Literal["logprob", "text"] = Field(
        "logprob",
        description="logprob: P(True)/(P(True)+P(False)) from token logprobs; "
        "text: a constrained True/False answer.",
    )
    verdict_source: VerdictSource = Field(
        VerdictSource.TINYV,
        description="How the served model judges answers in the modes: 'tinyv' (True/False) or "
        "'rubric' (a critique ending in 'Total Score: X/10', score min(10, X)/10).",
    )
    template: str = Field(
        "tinyv-1.5b",
        description="Verdict prompt: 'tinyv-1.5b', 'tinyv-qwen3', or a template text with "
        "{question}, {reference}, {answer}, {true_label}, {false_label}.",
    )
    rubric_template: str = Field(
        "rubric",
        description="Prompt of the 'rubric' verdict source: 'rubric' or a template text with "
        "{question}, {reference}, {answer}.",
    )
    grading_template: str = Field(
        "rubric",
        description="Prompt of rubric grading (task 'rubric'): 'rubric' or a template text "
        "with {question}, {rubric}, {response}.",
    )
    true_label: str = Field(
        _VERIFIER_DEFAULTS["true_label"], min_length=1, description="The verdict's 'yes' label."
    )
    false_label: str = Field(
        _VERIFIER_DEFAULTS["false_label"], min_length=1, description="The verdict's 'no' label."
    )
    chat_format: Literal["server", "none"] = Field(
        _VERIFIER_DEFAULTS["chat_format"],
        description="server: wrap prompts in the model's chat template, learned once from the "
        "server's /tokenize; none: send the template text as is.",
    )
    thinking: bool = Field(
        _VERIFIER_DEFAULTS["thinking"],
        description="The verifier thinks before answering (TinyV *-Think): free text, verdict "
        "read after `</think>` or `Answer:`.",
    )
    thinking_max_tokens: int = Field(
        _VERIFIER_DEFAULTS["thinking_max_tokens"],
        gt=0,
        description="Tokens a thinking verifier may write per verdict.",
    )
    rubric_max_tokens: int = Field(
        _VERIFIER_DEFAULTS["rubric_max_tokens"],
        gt=0,
        description="Tokens of one rubric critique.",
    )
    max_batch: int = Field(
        _VERIFIER_DEFAULTS["max_batch"], gt=0, description="Prompts per verifier request."
    )
    max_concurrency: int = Field(
        _VERIFIER_DEFAULTS["max_concurrency"],
        gt=0,
        description="Verifier requests in flight at once, per service process.",
    )
    timeout_s: float = Field(
        _VERIFIER_DEFAULTS["request_timeout_s"],
        gt=0,
        description="Timeout of one verifier request.",
    )
    connect_timeout_s: float = Field(
        _VERIFIER_DEFAULTS["connect_timeout_s"],
        gt=0,
        description="Timeout of connecting to a verifier server.",
    )
    retries: int = Field(
        _VERIFIER_DEFAULTS["retries"],
        ge=0,
        description="Extra attempts after the first, on connect errors, 5xx and timeouts.",
    )
    backoff_s: float = Field(
        _VERIFIER_DEFAULTS["backoff_s"],
        ge=0,
        description="First wait before a retry; it doubles each retry, with jitter.",
    )
    backoff_max_s: float = Field(
        _VERIFIER_DEFAULTS["backoff_max_s"], ge=0, description="Longest wait between retries."
    )
    breaker_failures: int = Field(
        _VERIFIER_DEFAULTS["breaker_failures"],
        gt=0,
        description="Consecutive failed requests to a server that open its circuit breaker.",
    )
    breaker_reset_s: float = Field(
        _VERIFIER_DEFAULTS["breaker_reset_s"],
        gt=0,
        description="How long an open breaker stays open before one half-open probe.",
    )
    cache_size: int = Field(
        _VERIFIER_DEFAULTS["cache_size"],
        ge=1,
        description="Entries in each verdict cache (answers, rubric grades).",
    )
    extra_headers: dict[str, str] = Field(
        default_factory=dict,
        description='HTTP headers sent with every verifier request, as JSON: {"X-Team": "rl"}.',
    )

    @field_validator("template")
    @classmethod
    def _known_template(cls, value: str) -> str:
        resolve_template(value, VERDICT_TEMPLATES)
        return value

    @field_validator("rubric_template")
    @classmethod
    def _known_rubric_template(cls, value: str) -> str:
        resolve_template(value, RUBRIC_VERDICT_TEMPLATES)
        return value

    @field_validator("grading_template")
    @classmethod
    def _known_grading_template(cls, value: str) -> str:
        if value not in GRADING_TEMPLATES and "{response}" not in value:
            raise ValueError(
                f"template {value[:40]!r} is neither a preset ({', '.join(GRADING_TEMPLATES)}) "
                "nor a text containing {response}"
            )
        return value

    def client_config(self) -> VerifierConfig | None:
        """The verifier client's config, or None when no URL is set."""
        if not self.url:
            return None
        return VerifierConfig(
            base_urls=parse_urls(self.url),
            model=self.model,
            api_key=self.api_key.get_secret_value() if self.api_key else None,
            mode=self.scoring,
            template=resolve_template(self.template, VERDICT_TEMPLATES),
            rubric_verdict_template=resolve_template(
                self.rubric_template, RUBRIC_VERDICT_TEMPLATES
            ),
            rubric_template=GRADING_TEMPLATES.get(self.grading_template, self.grading_template),
            true_label=self.true_label,
            false_label=self.false_label,
            chat_format=self.chat_format,
            max_concurrency=self.max_concurrency,
            max_batch=self.max_batch,
            connect_timeout_s=self.connect_timeout_s,
            request_timeout_s=self.timeout_s,
            retries=self.retries,
            backoff_s=self.backoff_s,
            backoff_max_s=self.backoff_max_s,
            breaker_failures=self.breaker_failures,
            breaker_reset_s=self.breaker_reset_s,
            cache_size=self.cache_size,
            rubric_max_tokens=self.rubric_max_tokens,
            thinking=self.thinking,
            thinking_max_tokens=self.thinking_max_tokens,
            extra_headers=tuple(self.extra_headers.items()),
        )


class SandboxSettings(BaseModel):
    """The code sandbox: ``VERIFIER_SANDBOX_<NAME>``, and q's own variables.

    A field whose ``validation_alias`` is set is read from that variable (q's names)."""

    model_config = ConfigDict(extra="ignore")

    isolation: Isolation = Field(
        _SANDBOX_DEFAULTS["isolation"],
        description="bwrap (bubblewrap namespaces) or none (rlimits and timeouts only: an "
        "explicit opt-in where bubblewrap cannot run).",
    )
    workers: int = Field(
        default_factory=_cpu_count,
        gt=0,
        description="Warm sandbox worker processes.",
        json_schema_extra=_shown("CPU count"),
    )
    recycle_after: int = Field(
        _SANDBOX_DEFAULTS["recycle_after"],
        gt=0,
        description="Jobs a worker runs before it is replaced.",
    )
    python: str = Field(
        default_factory=lambda: sys.executable or "python3",
        min_length=1,
        description="Python interpreter that runs Python items.",
        json_schema_extra=_shown("the service's Python"),
    )
    bwrap: str = Field(
        _SANDBOX_DEFAULTS["bwrap_bin"], min_length=1, description="The bubblewrap binary."
    )
    uid_base: int = Field(
        _SANDBOX_DEFAULTS["uid_base"],
        gt=0,
        description="When the service runs as root, worker i runs as uid/gid uid_base + i.",
    )
    tmpfs_mb: int = Field(
        _SANDBOX_DEFAULTS["tmpfs_mb"], gt=0, description="Size of each run's private /tmp."
    )
    q_workspace_mb: int = Field(
        _SANDBOX_DEFAULTS["q_workspace_mb"], gt=0, description="q's workspace cap (q -w)."
    )
    q_bin: str | None = Field(
        None,
        validation_alias="Q_BIN",
        description="The q binary; unset: `$QHOME/<arch>/q` where it exists.",
    )
    q_home: str | None = Field(None, validation_alias="QHOME", description="The q installation.")
    q_license_dir: str | None = Field(
        None, validation_alias="QLIC", description="Folder holding the licence (k4.lic or kc.lic)."
    )
    q_license_b64: SecretStr | None = Field(
        None,
        validation_alias="KDB_LICENSE_B64",
        description="kc.lic, base64-encoded (needs network to its licence daemon).",
    )
    q_k4_license_b64: SecretStr | None = Field(
        None,
        validation_alias="KDB_K4LICENSE_B64",
        description="k4.lic, base64-encoded (offline; preferred).",
    )

    @field_validator("isolation", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    def config(self) -> SandboxConfig:
        """The sandbox's config."""
        return SandboxConfig(
            isolation=self.isolation,
            workers=self.workers,
            recycle_after=self.recycle_after,
            python_bin=self.python,
            q_bin=self.q_bin or default_q_bin(self.q_home),
            q_home=self.q_home,
            q_license_dir=self.q_license_dir,
            q_license_b64=self.q_license_b64.get_secret_value() if self.q_license_b64 else None,
            q_k4_license_b64=(
                self.q_k4_license_b64.get_secret_value() if self.q_k4_license_b64 else None
            ),
            q_workspace_mb=self.q_workspace_mb,
            bwrap_bin=self.bwrap,
            uid_base=self.uid_base,
            tmpfs_mb=self.tmpfs_mb,
        )


class _UnprefixedSource(PydanticBaseSettingsSource):
    """Section fields read from a variable of their own name (``validation_alias``)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        raise NotImplementedError  # __call__ reads every variable itself

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for section, model in SECTIONS.items():
            values = {
                alias: os.environ[alias]
                for info in model.model_fields.values()
                if isinstance(alias := info.validation_alias, str) and os.environ.get(alias)
            }
            if values:
                found[section] = values
        return found


class Settings(BaseSettings):
    # Blank variables (compose passes ${VAR:-} as "") mean "unset", not "empty string": an
    # empty API key would otherwise demand an empty bearer token on every request. The
    # sections are read from VERIFIER_<SECTION>_<NAME>.
    model_config = SettingsConfigDict(
        env_prefix=PREFIX,
        extra="ignore",
        env_ignore_empty=True,
        env_nested_delimiter="_",
        env_nested_max_split=1,
    )

    api_key: SecretStr | None = Field(
        None, description="When set, scoring routes require `Authorization: Bearer <key>`."
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
    answer_after_reasoning: bool = Field(
        True,
        description="Math: search only the text after a closed reasoning block "
        "(<think>…</think>, <reasoning>…</reasoning>); a block left open is no answer. Turn "
        "off for models that write no such blocks; the request option "
        "answer_after_reasoning overrides it.",
    )
    max_body_bytes: int = Field(
        64 * 1024 * 1024, gt=0, description="Larger request bodies get 413."
    )
    max_batch_items: int = Field(20_000, gt=0, description="Most items one request may carry.")
    math_workers: int = Field(
        default_factory=_cpu_count,
        gt=0,
        description="Processes for symbolic math comparison.",
        json_schema_extra=_shown("CPU count"),
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
    every_test_after_timeout: bool = Field(
        False,
        description="Code: run a program's remaining tests after its first one timed out "
        "(off: they are skipped and count as failed, so a hang costs one timeout, not one "
        "per test); the request option every_test overrides it.",
    )
    code_wall_backstop: float = Field(
        3.0,
        ge=1.0,
        description="Code: a test's timeout is CPU time (a program killed at it used that "
        "much CPU, however slow a loaded machine was); one that waits instead (sleeps, "
        "blocks) is killed after this many times the timeout of wall-clock time. 1: the "
        "wall clock is the verdict.",
    )
    code_cache_size: int = Field(
        4096,
        ge=0,
        description="Code: runs of (language, program, tests, limits) kept for reuse by later "
        "requests (GRPO steps resend identical programs); runs with a sandbox error or a "
        "wall-clock timeout are never kept. 0: off.",
    )
    code_cache_ttl_s: float = Field(
        600.0, gt=0, description="Code: seconds a kept run is reused before it expires."
    )
    queued_tests_per_worker: int = Field(
        256,
        ge=0,
        description="Sandboxed tests admitted and unfinished (queued or running) per sandbox "
        "worker; a request that would go past this answers 429 with Retry-After, and /ready "
        "says 503 while the bound is reached. 0: no bound.",
    )
    queued_math_per_worker: int = Field(
        1024,
        ge=0,
        description="Math comparisons admitted and unfinished per math worker; past it, 429 "
        "with Retry-After as for tests. 0: no bound.",
    )
    required_backends: str = Field(
        "math,sandbox,canaries",
        description="Backends that must work for /ready to answer 200, comma-separated, from "
        "math, sandbox, q, llm_verifier, canaries. A replica that cannot run what it is asked "
        "to score, or whose exploit canaries find a reward path gameable, then leaves the "
        "gateway's and the probes' rotation; add q and llm_verifier where the replica is "
        "configured for them.",
    )
    exploit_canary_interval_s: float = Field(
        600.0,
        ge=0,
        description="Seconds between runs of the exploit canaries (a few known exploits scored "
        "through the live pipeline; also run at start); 0 turns them off.",
    )
    llm: LLMSettings = Field(default_factory=LLMSettings, description="The LLM verifier.")
    sandbox: SandboxSettings = Field(
        default_factory=SandboxSettings, description="The code sandbox."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (
            init_settings,
            _UnprefixedSource(settings_cls),
            env_settings,
            dotenv_settings,
            file_secret_settings,
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


# Nested sections, by their field name in Settings (and their variables' infix).
SECTIONS: dict[str, type[BaseModel]] = {"llm": LLMSettings, "sandbox": SandboxSettings}


@dataclass(frozen=True, slots=True)
class Variable:
    """One environment variable of the settings tree."""

    env: str
    path: str  # where the value lands: "math_workers", "llm.url", "sandbox.q_bin"
    info: FieldInfo


def variables() -> Iterator[Variable]:
    """Every variable the service reads, top-level settings first, then each section."""
    for name, info in Settings.model_fields.items():
        if name not in SECTIONS:
            yield Variable(f"{PREFIX}{name.upper()}", name, info)
    for section, model in SECTIONS.items():
        for name, info in model.model_fields.items():
            alias = info.validation_alias
            env = alias if isinstance(alias, str) else f"{PREFIX}{section.upper()}_{name.upper()}"
            yield Variable(env, f"{section}.{name}", info)
