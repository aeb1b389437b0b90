"""What a task is to the rest of the service: one :class:`TaskEntry` per task folder.

An entry holds the task's wire side (its name, item model and typed route: the folder's
``wire.py``), how its judge is built from the service's backends, its reward rule, how a
judgement is presented on the wire, and, where they apply, the bounded backend its items
load and how the LLM stage may refine its verdicts. The scorer, the LLM stage, the result
builder and the API read tasks only through entries (:mod:`services.tasks.registry`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from services.admission import Backend
from services.domain import Mode, Task
from services.judgement import Judgement
from services.mathcheck.checker import Checker
from services.metrics import Metrics
from services.rewards.policy import Reward, RewardInterval
from services.tasks.items import BatchRoute, TaskWire
from services.tasks.judging import TaskItem, TaskJudge
from services.tasks.policy import ScoringPolicy
from services.verifier import VerifierClient, VerifierJudgement, VerifyRequest

EvidenceT = TypeVar("EvidenceT")
Components = dict[str, float]


@dataclass(frozen=True, slots=True)
class JudgeParts:
    """The backends judges are built from (the composition root starts them)."""

    checker: Checker
    metrics: Metrics
    # The sandboxed code judge; None where code is not scored.
    code: TaskJudge | None
    # The LLM verifier client; None when no verifier URL is set.
    verifier: VerifierClient | None


@dataclass(frozen=True, slots=True)
class Presented:
    """A judgement as the wire shows it: its components and what was judged, cut short."""

    components: Components
    extracted: str | None


NOT_PRESENTED = Presented({}, None)


@dataclass(frozen=True, slots=True)
class Refused:
    """Why the verifier is not asked about an item: its completion bears no answer."""

    reason: str


@dataclass(frozen=True, slots=True)
class Ask:
    """What the verifier is asked about an item: its request, and the span it is shown."""

    request: VerifyRequest
    shown: str


@dataclass(frozen=True, slots=True)
class NotShown:
    """An item the verifier may not see (its completion bears no answer to show): the
    judgement it keeps, which says why."""

    judgement: Judgement[Any]


class Verification(Protocol[EvidenceT]):
    """How the LLM stage refines a task's verdicts with the served verifier: one call before
    the batched verifier call, one after it."""

    def ask(
        self, judgement: Judgement[EvidenceT], item: TaskItem, mode: Mode
    ) -> Ask | NotShown | None:
        """What to ask the verifier about this judged item; :class:`NotShown` where no
        answer may be shown, None where the mode does not ask about it."""
        ...

    def refined(
        self,
        judgement: Judgement[EvidenceT],
        verdict: VerifierJudgement,
        ask: Ask,
        policy: ScoringPolicy,
    ) -> Judgement[EvidenceT]:
        """The judgement with the verifier's verdict on ``ask.shown`` (or its failure), under
        the request's mode, verdict source and reward policy."""
        ...


def no_demand(item: Any) -> int:
    return 0


def verdict_score(judgement: Judgement[Any]) -> float:
    """Correctness in [0, 1] from the verdict alone: 1 when the item is correct."""
    return 1.0 if judgement.correct else 0.0


def no_answer_never(judgement: Judgement[Any]) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class TaskEntry(Generic[EvidenceT]):
    """One task, as its folder assembles it."""

    wire: TaskWire  # its name, item model and typed route (the folder's wire.py)
    judge: Callable[[JudgeParts], TaskJudge]
    reward: Callable[[Judgement[EvidenceT], ScoringPolicy], Reward]
    present: Callable[[Judgement[EvidenceT], Reward], Presented]
    # The bounded backend an item's work goes to, and how many units of it an item asks.
    backend: Backend | None = None
    demand: Callable[[Any], int] = no_demand
    verification: Verification[EvidenceT] | None = None
    # The interval every reward of the task lies in under a request's policy; None: no
    # bound but finiteness. The scorer clamps each reward into it as its last step.
    interval: Callable[[ScoringPolicy], RewardInterval] | None = None
    # What the adapters of other frameworks read (OpenRLHF's /get_reward): the item's
    # correctness in [0, 1], and whether the judge found no answer at all.
    score: Callable[[Judgement[EvidenceT]], float] = verdict_score
    no_answer: Callable[[Judgement[EvidenceT]], bool] = no_answer_never

    @property
    def name(self) -> Task:
        return self.wire.name

    @property
    def item(self) -> type[BaseModel]:
        return self.wire.item

    @property
    def route(self) -> BatchRoute | None:
        return self.wire.route

    def reward_interval(self, policy: ScoringPolicy) -> RewardInterval | None:
        return self.interval(policy) if self.interval is not None else None
