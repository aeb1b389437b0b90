"""One request's scoring policy: its options resolved against the server's defaults.

The API turns a request's options into a :class:`ScoringPolicy` once, at the edge
(``RewardOptions.to_policy``, as vLLM's ``to_sampling_params``); the scorer, the task
judges, the LLM stage and the reward rules read only this frozen, typed policy. A value the
request leaves out takes the server's default here, in :meth:`ServerDefaults.resolve`, and
nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.domain import ExtractionPolicy, Mode, VerdictSource
from services.rewards.policy import FormatWeights, RewardPolicy, RewardScale
from services.tasks.code.options import CodeOptions
from services.tasks.math.options import MathOptions


@dataclass(frozen=True, slots=True)
class ScoringPolicy:
    """How one request is judged and rewarded."""

    mode: Mode = Mode.RULE
    verdict_source: VerdictSource = VerdictSource.TINYV
    reward: RewardPolicy = field(default_factory=RewardPolicy)
    min_thinking_words: int = 20  # thinking sections with fewer words are penalised
    math: MathOptions = field(default_factory=MathOptions)
    code: CodeOptions = field(default_factory=CodeOptions)


@dataclass(frozen=True, slots=True)
class ServerDefaults:
    """What a request that leaves an option out gets: the server's settings."""

    mode: Mode = Mode.RULE
    verdict_source: VerdictSource = VerdictSource.TINYV
    extraction: ExtractionPolicy = ExtractionPolicy.MARKED
    answer_after_reasoning: bool = True
    every_test: bool = False

    def resolve(
        self,
        *,
        mode: Mode | None = None,
        verdict_source: VerdictSource | None = None,
        verifier_weight: float = 1.0,
        extraction: ExtractionPolicy | None = None,
        answer_after_reasoning: bool | None = None,
        correct: float = 1.0,
        wrong: float = -1.0,
        no_answer: float = -0.5,
        answer_weight: float = 1.0,
        format_weight: float = 0.0,
        thinking_weight: float = 0.0,
        min_thinking_words: int = 20,
        base_weight: float = 1.0,
        perfect_bonus: float = 1.0,
        perfect_weight: float = 1.0,
        empty_code_reward: float = -0.5,
        every_test: bool | None = None,
    ) -> ScoringPolicy:
        """The policy of a request's options (None: the server's default)."""
        return ScoringPolicy(
            mode=self.mode if mode is None else Mode(mode),
            verdict_source=(
                self.verdict_source if verdict_source is None else VerdictSource(verdict_source)
            ),
            reward=RewardPolicy(
                scale=RewardScale(correct, wrong, no_answer),
                weights=FormatWeights(answer_weight, format_weight, thinking_weight),
                verifier_weight=verifier_weight,
            ),
            min_thinking_words=min_thinking_words,
            math=MathOptions(
                extraction=self.extraction if extraction is None else ExtractionPolicy(extraction),
                answer_after_reasoning=(
                    self.answer_after_reasoning
                    if answer_after_reasoning is None
                    else answer_after_reasoning
                ),
            ),
            code=CodeOptions(
                every_test=self.every_test if every_test is None else every_test,
                base_weight=base_weight,
                perfect_bonus=perfect_bonus,
                perfect_weight=perfect_weight,
                empty_code_reward=empty_code_reward,
            ),
        )


DEFAULTS = ServerDefaults()
