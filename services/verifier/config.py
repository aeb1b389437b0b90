"""The LLM verifier's settings: the ``llm`` section of the service's settings
(``VERIFIER_LLM_<NAME>``), and the config :class:`~services.verifier.VerifierClient` takes
as it is."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from services.contract.http_policy import HttpPolicy, nest_policy_fields
from services.domain import VerdictSource
from services.reference_docs import SECTION_VARIABLES

# TinyV's prompt (uw-nsl/TinyV, tinyv_config.json): question, ground truth, model answer.
TINYV_TEMPLATE = (
    "You are an AI tasked with identifying false negatives in answer verification. A false "
    "negative occurs when a model's answer is essentially correct but is marked as incorrect "
    "due to minor discrepancies or formatting issues. Your job is to analyze the given "
    "question, ground truth answer, and model answer to determine if the model's answer is "
    "actually correct despite appearing different from the ground truth.\n\n"
    "<question>{question}</question>\n\n"
    "<ground_truth_answer>{reference}</ground_truth_answer>\n\n"
    "<model_answer>{answer}</model_answer>\n\n"
    'Return "{true_label}" if the model\'s answer is correct, otherwise return "{false_label}".'
)

# TinyV-Qwen3-1.7B's prompt (tinyv_config.json): a shorter instruction, same fields.
TINYV_QWEN3_TEMPLATE = (
    "You are an AI tasked with identifying if the model's answer is correct compared to the "
    "ground truth answer despite appearing different from the ground truth.\n\n"
    "<question>{question}</question>\n\n"
    "<ground_truth_answer>{reference}</ground_truth_answer>\n\n"
    "<model_answer>{answer}</model_answer>\n\n"
    'Return "{true_label}" if the model\'s answer is correct, otherwise return "{false_label}".'
)

# A rubric reward model judging an answer inside the modes: score = X/10 in [0, 1].
RUBRIC_VERDICT_TEMPLATE = (
    "You are a strict grader. Compare the model's answer to the question with the ground "
    "truth answer. Write a short critique of whether the model's answer is mathematically "
    "equivalent to the ground truth, then finish with a line 'Total Score: X/10' where X is "
    "10 for a correct answer and 0 for a wrong one.\n\n"
    "<question>{question}</question>\n\n"
    "<ground_truth_answer>{reference}</ground_truth_answer>\n\n"
    "<model_answer>{answer}</model_answer>"
)

RUBRIC_TEMPLATE = (
    "You are a strict grader. Read the question and the response, then write a short "
    "critique of the response's correctness, completeness and clarity, and finish with a "
    "line 'Total Score: X/10' where X is an integer from 0 to 10.\n\n"
    "<question>{question}</question>\n\n"
    "<rubric>{rubric}</rubric>\n\n"
    "<response>{response}</response>"
)

# Verdict templates by name; any other value of a template setting is the template itself.
VERDICT_TEMPLATES = {"tinyv-1.5b": TINYV_TEMPLATE, "tinyv-qwen3": TINYV_QWEN3_TEMPLATE}
RUBRIC_VERDICT_TEMPLATES = {"rubric": RUBRIC_VERDICT_TEMPLATE}

# vLLM sits behind a scoring request with its own time budget: shorter waits and fewer
# retries than a client of the service, and a breaker per server on top.
VERIFIER_HTTP = HttpPolicy(
    connect_timeout_s=3.0, timeout_s=60.0, retries=2, backoff_s=0.25, backoff_max_s=4.0
)
# The policy's fields that are this section's own variables. Not busy_wait_s: the transport
# turns every failed answer (a 429 too) into an attempt of its own, so it has no busy wait.
HTTP_FIELDS = tuple(
    field.name for field in dataclasses.fields(HttpPolicy) if field.name != "busy_wait_s"
)

# How the verifier's True/False verdict is read: a probability from the label tokens'
# logprobs, or a constrained text answer.
Scoring = Literal["logprob", "text"]
ChatFormat = Literal["server", "none"]
# Templates of rubric grading (``task: rubric``) by name; any other value is the template.
GRADING_TEMPLATES = {"rubric": RUBRIC_TEMPLATE}


def resolve_template(value: str, presets: dict[str, str], field: str = "{answer}") -> str:
    """A preset's text by name, or ``value`` itself when it is a template with ``field``."""
    if value in presets:
        return presets[value]
    if field not in value:
        raise ValueError(
            f"template {value[:40]!r} is neither a preset ({', '.join(presets)}) nor a text "
            f"containing {field}"
        )
    return value


def base_url(url: str) -> str:
    """The server root: ``http://h:8000/v1/`` and ``http://h:8000`` both give ``http://h:8000``
    (the client adds ``/v1/...`` and vLLM's ``/health``, ``/tokenize`` live at the root)."""
    url = url.strip().rstrip("/")
    return url.removesuffix("/v1").rstrip("/")


def parse_urls(value: str) -> tuple[str, ...]:
    """``"http://a:8000, http://b:8000/v1"`` -> server roots (comma-separated env var)."""
    return tuple(base_url(url) for url in value.split(",") if url.strip())


class VerifierConfig(BaseModel):
    """The LLM verifier (vLLM's OpenAI server): ``VERIFIER_LLM_<NAME>``.

    The HTTP policy's fields are this section's own variables (``VERIFIER_LLM_TIMEOUT_S``,
    ``VERIFIER_LLM_RETRIES``, ...) and land in :attr:`http`, which the transport takes whole.
    """

    # Variables of the compose file's vLLM service share the prefix (VERIFIER_LLM_TP, ...).
    model_config = ConfigDict(extra="ignore", frozen=True)

    url: str | None = Field(
        None,
        description="LLM verifier (vLLM OpenAI server) URL(s), comma-separated: "
        "http://host:port or http://host:port/v1. Unset: no verifier.",
    )
    model: str | None = Field(
        None, description="Model name served by the LLM verifier; unset: the first it lists."
    )
    api_key: SecretStr | None = Field(None, description="API key for the LLM verifier.")
    scoring: Scoring = Field(
        "logprob",
        description="logprob: P(True)/(P(True)+P(False)) from token logprobs; "
        "text: a constrained True/False answer.",
    )
    verdict_source: VerdictSource = Field(
        VerdictSource.TINYV,
        description="How the served model judges answers in the modes: 'tinyv' (True/False) or "
        "'rubric' (a critique ending in 'Total Score: X/10', score X/10 clamped into [0, 1]).",
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
    true_label: str = Field("True", min_length=1, description="The verdict's 'yes' label.")
    false_label: str = Field("False", min_length=1, description="The verdict's 'no' label.")
    chat_format: ChatFormat = Field(
        "server",
        description="server: wrap prompts in the model's chat template, learned once from the "
        "server's /tokenize; none: send the template text as is.",
    )
    thinking: bool = Field(
        False,
        description="The verifier thinks before answering (TinyV *-Think): free text, verdict "
        "read after `</think>` or `Answer:`.",
    )
    thinking_max_tokens: int = Field(
        512, gt=0, description="Tokens a thinking verifier may write per verdict."
    )
    rubric_max_tokens: int = Field(256, gt=0, description="Tokens of one rubric critique.")
    max_batch: int = Field(64, gt=0, description="Prompts per verifier request.")
    max_concurrency: int = Field(
        4, gt=0, description="Verifier requests in flight at once, per service process."
    )
    http: HttpPolicy = Field(
        VERIFIER_HTTP,
        description="Timeouts and retries of each verifier request; its timeout also bounds "
        "the request as a whole.",
        json_schema_extra={SECTION_VARIABLES: list(HTTP_FIELDS)},
    )
    breaker_failures: int = Field(
        3,
        gt=0,
        description="Consecutive failed requests to a server that open its circuit breaker.",
    )
    breaker_reset_s: float = Field(
        10.0,
        gt=0,
        description="How long an open breaker stays open before one half-open probe.",
    )
    cache_size: int = Field(
        16_384,
        ge=0,
        description="Entries in each verdict cache (answers, rubric grades); 0 turns them off.",
    )
    extra_headers: dict[str, str] = Field(
        default_factory=dict,
        description='HTTP headers sent with every verifier request, as JSON: {"X-Team": "rl"}.',
    )

    @model_validator(mode="before")
    @classmethod
    def _http_fields_are_the_sections(cls, data: Any) -> Any:
        """``timeout_s``, ``retries``, ... given at the section's level go into ``http``."""
        return nest_policy_fields(data, HTTP_FIELDS, VERIFIER_HTTP)

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
        resolve_template(value, GRADING_TEMPLATES, "{response}")
        return value

    @property
    def base_urls(self) -> tuple[str, ...]:
        """The servers' roots, from :attr:`url`; empty when no verifier is configured."""
        return parse_urls(self.url or "")

    @property
    def verdict_prompt(self) -> str:
        """The text of :attr:`template`."""
        return resolve_template(self.template, VERDICT_TEMPLATES)

    @property
    def rubric_verdict_prompt(self) -> str:
        """The text of :attr:`rubric_template`."""
        return resolve_template(self.rubric_template, RUBRIC_VERDICT_TEMPLATES)

    @property
    def grading_prompt(self) -> str:
        """The text of :attr:`grading_template`."""
        return resolve_template(self.grading_template, GRADING_TEMPLATES, "{response}")
