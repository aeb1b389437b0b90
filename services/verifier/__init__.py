"""LLM verifier client (TinyV-style verdicts, rubric grades) for a vLLM OpenAI server."""

from services.verifier.breaker import BreakerState, CircuitBreaker
from services.verifier.client import VerifierClient
from services.verifier.config import (
    RUBRIC_TEMPLATE,
    TINYV_TEMPLATE,
    VerifierConfig,
    parse_urls,
)
from services.verifier.parsing import (
    label_probability,
    parse_total_score,
    rubric_reward,
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
    "TINYV_TEMPLATE",
    "BreakerState",
    "CircuitBreaker",
    "ErrorKind",
    "RubricJudgement",
    "RubricRequest",
    "VerifierClient",
    "VerifierConfig",
    "VerifierJudgement",
    "VerifyRequest",
    "label_probability",
    "parse_total_score",
    "parse_urls",
    "rubric_reward",
]
