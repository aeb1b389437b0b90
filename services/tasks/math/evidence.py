"""What the math judge found for an item, and what the LLM verifier added."""

from __future__ import annotations

from dataclasses import dataclass

from services.mathcheck.extraction import Committed
from services.rewards.format_reward import FormatScore


@dataclass(frozen=True, slots=True)
class VerifierView:
    """What the LLM verifier was shown for a math answer, and what it said."""

    shown: str  # the answer it judged (normalised, only the answer: answer_bearing)
    best_effort: bool  # the policy found no marked answer: it judged the unmarked one
    probability: float  # P(correct), or the rubric score when the verdict source is rubric
    label_mass: float | None  # P(True) + P(False), when the verdict came from logprobs
    score: float  # the mode's combination of rule verdict and probability, in [0, 1]
    # The verdict only caps the rule's reward (an answer hidden in the reasoning block): the
    # reward is the lower of the rule's and what the same answer marked would earn.
    capped: bool = False


@dataclass(frozen=True, slots=True)
class Unmarked:
    """An answer the completion gives without the extraction policy's marker, or only inside
    its reasoning block: judged by the rule all the same, so that leaving an answer unmarked
    or hiding it never pays more than marking it (docs/integrity.md)."""

    answer: str  # what the rule judged
    shown: str | None  # what the LLM verifier may see; None: never (``refusal`` says why)
    refusal: str | None
    # Only inside the reasoning block: never credited; the verifier's verdict on its value
    # may only lower its reward, to what the same answer marked would earn.
    hidden: bool
    accepted: bool  # the checker found it equal to the reference


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
    # Where no marked answer was found: the answer given without a marker (or hidden in the
    # reasoning block), and why none was found where there is none.
    unmarked: Unmarked | None = None
    unanswered: str | None = None
