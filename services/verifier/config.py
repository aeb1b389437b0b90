"""Settings of the LLM verifier client (frozen: one config per client)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from services.http_policy import HttpPolicy

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

# A rubric reward model judging an answer inside the modes: score = min(10, X)/10.
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

ScoringMode = Literal["logprob", "text"]
ChatFormat = Literal["server", "none"]
VerdictSource = Literal["tinyv", "rubric"]


def resolve_template(value: str, presets: dict[str, str]) -> str:
    """A preset's text by name, or ``value`` itself when it is a template with ``{answer}``."""
    if value in presets:
        return presets[value]
    if "{answer}" not in value:
        raise ValueError(
            f"template {value[:40]!r} is neither a preset ({', '.join(presets)}) nor a text "
            "containing {answer}"
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


@dataclass(frozen=True, slots=True)
class VerifierConfig:
    base_urls: tuple[str, ...]
    # None: the first model the server lists at /v1/models (vLLM serves one).
    model: str | None = None
    api_key: str | None = None
    mode: ScoringMode = "logprob"
    template: str = TINYV_TEMPLATE
    rubric_verdict_template: str = RUBRIC_VERDICT_TEMPLATE
    rubric_template: str = RUBRIC_TEMPLATE
    true_label: str = "True"
    false_label: str = "False"
    # "server": wrap prompts in the model's own chat template, learned once from the
    # server's /tokenize + /detokenize; "none": send the template text as is.
    chat_format: ChatFormat = "server"
    max_concurrency: int = 4
    max_batch: int = 64
    # The HTTP policy, flat so each is one setting; ``http`` is the HttpPolicy they make.
    connect_timeout_s: float = VERIFIER_HTTP.connect_timeout_s
    request_timeout_s: float = VERIFIER_HTTP.timeout_s  # also bounds the whole request
    retries: int = VERIFIER_HTTP.retries  # extra attempts, on connect errors/5xx/timeouts
    backoff_s: float = VERIFIER_HTTP.backoff_s  # first wait; doubles each retry, with jitter
    backoff_max_s: float = VERIFIER_HTTP.backoff_max_s
    breaker_failures: int = 3  # consecutive failed requests that open the breaker
    breaker_reset_s: float = 10.0  # open for this long, then one half-open probe
    cache_size: int = 16_384
    rubric_max_tokens: int = 256
    # A verifier that thinks first: free text up to thinking_max_tokens, verdict read after
    # "</think>" or "Answer:" (TinyV's *-Think models).
    thinking: bool = False
    thinking_max_tokens: int = 512
    extra_headers: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if not self.base_urls:
            raise ValueError("VerifierConfig needs at least one base URL")
        if self.mode not in ("logprob", "text"):
            raise ValueError(f"unknown scoring mode {self.mode!r}")
        if self.max_batch < 1 or self.max_concurrency < 1:
            raise ValueError("max_batch and max_concurrency must be >= 1")
        object.__setattr__(self, "base_urls", tuple(base_url(u) for u in self.base_urls))

    @property
    def http(self) -> HttpPolicy:
        return HttpPolicy(
            connect_timeout_s=self.connect_timeout_s,
            timeout_s=self.request_timeout_s,
            retries=self.retries,
            backoff_s=self.backoff_s,
            backoff_max_s=self.backoff_max_s,
        )
