"""The math task's own options, resolved for one request."""

from __future__ import annotations

from dataclasses import dataclass

from services.domain import ExtractionPolicy


@dataclass(frozen=True, slots=True)
class MathOptions:
    extraction: ExtractionPolicy = ExtractionPolicy.MARKED
    # Search only the text after a closed reasoning block (services.mathcheck.extraction).
    answer_after_reasoning: bool = True
