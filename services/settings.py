"""Service settings: one typed tree, read from the environment.

Top-level settings are ``VERIFIER_<NAME>``; the LLM verifier's are ``VERIFIER_LLM_<NAME>``
and the sandbox's ``VERIFIER_SANDBOX_<NAME>`` (nested sections); q's own variables keep the
names the kdb+ distribution documents (``Q_BIN``, ``QHOME``, ``QLIC``, ``KDB_*``). Each
section is the config its part takes as it is (:class:`VerifierConfig`,
:class:`SandboxConfig`), so nothing deeper in the code reads the environment.
docs/configuration.md lists every variable (``python -m services.settings_reference``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from sandbox import SandboxConfig
from services.domain import BACKENDS, ExtractionPolicy, Mode
from services.reference_docs import SHOWN_DEFAULT, section_parts
from services.tasks.code.selection import DEFAULT_MAX_TESTS, MAX_TESTS_CEILING
from services.tasks.policy import ServerDefaults
from services.verifier.config import VerifierConfig

PREFIX = "VERIFIER_"


def _cpu_count() -> int:
    return os.cpu_count() or 1


def _user_cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "reward-verifier"


def _shown(text: str) -> dict[str, Any]:
    """What the reference shows as the default of a field whose default is computed."""
    return {SHOWN_DEFAULT: text}


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
        description="Processes that judge math items (extraction, reading, comparison and "
        "the symbolic engine), shared round-robin between requests.",
        json_schema_extra=_shown("CPU count"),
    )
    math_timeout_s: float = Field(
        3.0,
        gt=0,
        description="Deadline of one symbolic comparison, in its worker's CPU time (time "
        "waiting for a worker never counts). Backstop for a hang that timer cannot stop (C "
        "code): an item running past 20 times this plus a second of wall-clock time has its "
        "worker killed and gets status 'timeout'.",
    )
    math_memory_mb: int = Field(
        2048, gt=64, description="Address-space limit of each math worker process."
    )
    math_log_convention: Literal["reference", "natural", "common"] = Field(
        "reference",
        description="What \\log without a base means in a math comparison: 'reference', the "
        "reference's convention (natural where it writes \\ln and no \\log without a base, "
        "else base 10); 'natural' or 'common' (base 10) on both sides. A written base "
        "(\\log_2) is always kept.",
    )
    math_parser_snapshot_dir: Path | None = Field(
        default_factory=_user_cache_dir,
        description="Where the math workers' fork server keeps a snapshot of the LaTeX "
        "parser's prediction tables: written by the first warm-up, loaded by later starts, "
        "which then take about 3 s less CPU. A pickle, so a directory only this service's "
        "user can write; empty for none.",
        json_schema_extra=_shown("$XDG_CACHE_HOME/reward-verifier (~/.cache/reward-verifier)"),
    )
    math_chunk_items: int = Field(
        16,
        ge=1,
        description="Math items sent to a worker at once (fewer where that would leave a "
        "worker idle): large enough that dispatch costs little, small enough that another "
        "request's chunk starts soon.",
    )
    max_math_projected_s: float = Field(
        120.0,
        ge=0,
        description="Math: a request that, sharing the workers round-robin with the "
        "requests already being scored, would take longer than this answers 429 with "
        "Retry-After (the idle replica admits any request). 0: no bound.",
    )
    batch_timeout_s: float = Field(
        300.0,
        gt=0,
        description="Items of tasks other than math still unjudged after this get status "
        "'timeout'. Math items have no batch budget: each is bounded by its own compute "
        "deadline (VERIFIER_MATH_TIMEOUT_S).",
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
    code_max_tests: int = Field(
        DEFAULT_MAX_TESTS,
        ge=1,
        description="Code: an item runs all its tests up to this many (its first ones) when "
        "it sets no max_tests; its result says how many did not run and why, and it earns no "
        "perfect bonus. An item's max_tests sets its own limit, up to "
        "VERIFIER_CODE_MAX_TESTS_CEILING.",
    )
    code_max_tests_ceiling: int = Field(
        MAX_TESTS_CEILING,
        ge=1,
        description="Code: the most tests of one item that run, whatever its max_tests says "
        "(above it, the item runs this many, its result says so, and it earns no perfect "
        "bonus), so one request cannot fill the sandbox.",
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
        "worker (a run the code cache holds, or an item repeating another of its request, "
        "counts nothing); a request that would go past this answers 429 with Retry-After, and "
        "/ready says 503 while the bound is reached. 0: no bound.",
    )
    max_queue_wait_s: float = Field(
        1.0,
        ge=0,
        description="Sandbox: once a request has waited this long for a worker (a queue "
        "of programs that run to their timeout fills it long before the test bound), new "
        "code requests answer 429 with Retry-After and /ready says 503 until it catches up. "
        "0: no bound.",
    )
    max_projected_wait_s: float = Field(
        1.5,
        ge=0,
        description="Sandbox: a code request that would wait and run longer than this before "
        "it is done answers 429 at once, with Retry-After about when it would fit. The "
        "projection: each unfinished request's tests times the recent worker-seconds per "
        "test (spinners' timeouts included), less what it has used, plus the new request's "
        "own, over the sandbox workers (until a first request has finished, one request per "
        "worker). The idle sandbox admits any request. 0: no bound.",
    )
    queued_math_per_worker: int = Field(
        16_384,
        ge=0,
        description="Math items admitted and unfinished per math worker (a bound on memory, "
        "not on latency: requests share the workers round-robin, and "
        "VERIFIER_MAX_MATH_PROJECTED_S bounds the wait); past it, 429 with Retry-After as "
        "for tests. 0: no bound.",
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
    llm: VerifierConfig = Field(default_factory=VerifierConfig, description="The LLM verifier.")
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig, description="The code sandbox.")

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

    @field_validator("math_parser_snapshot_dir", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

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

    @property
    def defaults(self) -> ServerDefaults:
        """What a request that leaves an option out gets (resolved at the API's edge)."""
        return ServerDefaults(
            mode=self.mode,
            verdict_source=self.llm.verdict_source,
            extraction=self.extraction,
            answer_after_reasoning=self.answer_after_reasoning,
            every_test=self.every_test_after_timeout,
        )


# Nested sections, by their field name in Settings (and their variables' infix).
SECTIONS: dict[str, type[BaseModel]] = {"llm": VerifierConfig, "sandbox": SandboxConfig}


@dataclass(frozen=True, slots=True)
class Variable:
    """One environment variable of the settings tree."""

    env: str
    path: str  # where the value lands: "math_workers", "llm.url", "llm.http.retries"
    info: FieldInfo
    default: Any  # the value when the variable is unset

    @property
    def section(self) -> str:
        """The section's name ("llm", "sandbox"), or "" for a top-level setting."""
        return self.path.partition(".")[0] if "." in self.path else ""


def variables() -> Iterator[Variable]:
    """Every variable the service reads, top-level settings first, then each section.

    A section's field that holds a policy dataclass (the verifier's :class:`HttpPolicy`)
    is set through the section's own variables, one per policy field it names in
    ``json_schema_extra[SECTION_VARIABLES]``."""
    for name, info in Settings.model_fields.items():
        if name not in SECTIONS:
            yield Variable(f"{PREFIX}{name.upper()}", name, info, _default(info))
    for section, model in SECTIONS.items():
        infix = f"{PREFIX}{section.upper()}_"
        for name, info in model.model_fields.items():
            default = _default(info)
            if parts := section_parts(info, default):
                for part in parts:
                    env, path = f"{infix}{part.key.upper()}", f"{section}.{name}.{part.key}"
                    yield Variable(env, path, part.info, part.default)
                continue
            alias = info.validation_alias
            env = alias if isinstance(alias, str) else f"{infix}{name.upper()}"
            yield Variable(env, f"{section}.{name}", info, default)


def _default(info: FieldInfo) -> Any:
    return info.get_default(call_default_factory=True)
