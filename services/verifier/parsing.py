"""Pure functions: label probabilities from logprobs, rubric scores from text."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

# "Total Score: 7/10", "total score: 8.5 / 10", "**Total Score:** 9/10"; the last one wins.
_TOTAL_SCORE = re.compile(
    r"total\s+score\s*\**\s*:\s*\**\s*(\d+(?:\.\d+)?)\s*/\s*10(?![\d.]*\d)", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class LabelProbability:
    probability: float | None  # P(true)/(P(true)+P(false)); None when neither label is seen
    label_mass: float  # P(true)+P(false) within the returned top logprobs


def _label_of(token: str, true_label: str, false_label: str) -> bool | None:
    # Tokenisers emit "True", " True", "\u0120True"-decoded " True", "TRUE", "true"...
    word = token.strip().lower()
    if word == true_label.lower():
        return True
    if word == false_label.lower():
        return False
    return None


def label_probability(
    top_logprobs: Mapping[str, float | None] | None,
    true_label: str = "True",
    false_label: str = "False",
    token_labels: Mapping[str, bool] | None = None,
) -> LabelProbability:
    """Sum the probability of every returned token that spells a label.

    With ``token_labels`` (exact keys such as ``"token_id:2787"`` -> True, from vLLM's
    ``logprob_token_ids`` + ``return_tokens_as_token_ids``) only those keys count. Without
    it, any top-k token whose text is a label in any spacing or case counts; tokens missing
    from the top-k count as 0, so ``label_mass`` is then a lower bound. A model that answers
    something else (a quote, "Yes") shows up as a small mass.
    """
    p_true = p_false = 0.0
    for token, logprob in (top_logprobs or {}).items():
        if logprob is None or math.isnan(logprob):
            continue
        if token_labels is not None:
            label = token_labels.get(token)
        else:
            label = _label_of(token, true_label, false_label)
        if label is True:
            p_true += math.exp(logprob)
        elif label is False:
            p_false += math.exp(logprob)
    mass = min(1.0, p_true + p_false)
    if p_true + p_false <= 0.0:
        return LabelProbability(None, 0.0)
    return LabelProbability(p_true / (p_true + p_false), mass)


def text_label(text: str, true_label: str = "True", false_label: str = "False") -> bool | None:
    """The label a constrained (or free) answer spells, or None when it is neither."""
    return _label_of(text, true_label, false_label)


def parse_total_score(text: str) -> tuple[float | None, str | None]:
    """``(X/10, None)`` from the last "Total Score: X/10", clamped into [0, 1] on both
    sides, or ``(None, reason)``."""
    matches = _TOTAL_SCORE.findall(text)
    if not matches:
        tail = text.strip()[-80:]
        return None, f"no 'Total Score: X/10' in the grade (ends with {tail!r})"
    value = float(matches[-1])
    if not math.isfinite(value):
        return None, f"score {matches[-1]!r} is not a number"
    return min(1.0, max(0.0, value / 10.0)), None


def verdict_after_thinking(
    text: str, true_label: str = "True", false_label: str = "False"
) -> tuple[bool | None, str]:
    """A thinking verifier's verdict: the text after the last ``</think>`` (else after the
    last ``Answer:``), true when it mentions the true label (TinyV's ``'true' in reply``).

    Returns ``(verdict, the text it was read from)``; ``None`` when neither marker is there or
    the answer names neither label.
    """
    for marker in ("</think>", "Answer:"):
        if marker in text:
            answer = text.rsplit(marker, 1)[1].strip()
            break
    else:
        return None, ""
    lowered = answer.lower()
    if true_label.lower() in lowered:
        return True, answer
    if false_label.lower() in lowered:
        return False, answer
    return None, answer
