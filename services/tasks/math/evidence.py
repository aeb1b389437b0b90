"""What the math judge found for an item, and what the LLM verifier added."""

from __future__ import annotations

from dataclasses import dataclass

from services.mathcheck.reasoning import Committed
from services.rewards.format_reward import FormatScore


@dataclass(frozen=True, slots=True)
class VerifierView:
    """What the LLM verifier was shown for a math answer, and what it said."""

    shown: str  # the answer it judged
    best_effort: bool  # the rule found no answer: it judged the completion's best-effort one
    probability: float  # P(correct), or the rubric score when the verdict source is rubric
    label_mass: float | None  # P(True) + P(False), when the verdict came from logprobs
    score: float  # the mode's combination of rule verdict and probability, in [0, 1]


@dataclass(frozen=True, slots=True)
class MathEvidence:
    answer: str | None  # the final answer found, in full; None when there is none
    marked: bool  # the answer carried a final-answer marker (box, tag, ####, "answer is")
    reference: str  # the reference's final answer
    format: FormatScore  # tag compliance and thinking length
    committed: Committed  # where the answer was searched (the reasoning rule)
    # The rule's verdict: the checker found the answer equal to the reference.
    accepted: bool = False
    # Set when the LLM verifier gave a verdict.
    verifier: VerifierView | None = None
    # Why the LLM verifier was not asked although the mode asks it (no answer-bearing span
    # in the completion): the rule verdict stands.
    verifier_refusal: str | None = None
