"""LLM verifier client (TinyV-style verdicts, rubric grades) for a vLLM OpenAI server."""

from services.verifier.breaker import BreakerState, CircuitBreaker
from services.verifier.client import VerifierClient
from services.verifier.config import (
    RUBRIC_TEMPLATE,
    RUBRIC_VERDICT_TEMPLATE,
    RUBRIC_VERDICT_TEMPLATES,
    TINYV_QWEN3_TEMPLATE,
    TINYV_TEMPLATE,
    VERDICT_TEMPLATES,
    VerifierConfig,
    base_url,
    parse_urls,
    resolve_template,
)
from services.verifier.parsing import (
    label_probability,
    parse_total_score,
    verdict_after_thinking,
)
from services.verifier.types import (
    ErrorKind,
    RubricJudgement,
    RubricRequest,
    VerifierJudgement,
    VerifyRequest,
)

__all__ = [
    "RUBRIC_TEMPLATE",
    "RUBRIC_VERDICT_TEMPLATE",
    "RUBRIC_VERDICT_TEMPLATES",
    "TINYV_QWEN3_TEMPLATE",
    "TINYV_TEMPLATE",
    "VERDICT_TEMPLATES",
    "BreakerState",
    "CircuitBreaker",
    "ErrorKind",
    "RubricJudgement",
    "RubricRequest",
    "VerifierClient",
    "VerifierConfig",
    "VerifierJudgement",
    "VerifyRequest",
    "base_url",
    "label_probability",
    "parse_total_score",
    "parse_urls",
    "resolve_template",
    "verdict_after_thinking",
]
