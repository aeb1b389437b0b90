"""The LLM stage of a batch: the served verifier refines the task judges' verdicts.

Runs after the task judges, with one batched call for every item that needs it. Which
tasks it refines, and how, their registry entries say (``verification``: today math's,
:mod:`services.tasks.math.verification`): whether the mode asks about a judged item, the
span the verifier may see (or why none may be shown), and the judgement the verdict gives.
The verifier's probability is combined with the rule verdict by the request's scoring
policy (its mode, verdict source and reward policy, resolved at the edge); when it cannot
answer, the task's hooks keep the rule verdict and say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.domain import Mode, VerdictSource
from services.judgement import Judgement
from services.metrics import Metrics
from services.tasks.entry import Ask, NotShown, Verification
from services.tasks.judging import TaskItem
from services.tasks.policy import ScoringPolicy
from services.tasks.registry import entry_of
from services.verifier import VerifierClient, VerifierJudgement, VerifyRequest
from services.verifier.not_configured import NOT_CONFIGURED


class LLMStage:
    def __init__(self, client: VerifierClient | None, metrics: Metrics) -> None:
        self._client = client
        self._metrics = metrics

    @property
    def client(self) -> VerifierClient | None:
        return self._client

    async def refine(
        self,
        items: Sequence[TaskItem | None],
        judgements: list[Judgement[Any]],
        policy: ScoringPolicy,
    ) -> list[Judgement[Any]]:
        """The judgements, with the verifier's verdict on every item the mode asks about;
        ``items`` are the request's items in order (None where one was invalid)."""
        mode, source = policy.mode, policy.verdict_source
        refined = list(judgements)
        asked: list[tuple[int, Verification[Any], Ask]] = []
        for index, item in enumerate(items):
            hooks = self._hooks(mode, judgements[index])
            if item is None or hooks is None:
                continue
            ask = hooks.ask(judgements[index], item, mode)
            if ask is None:
                # addon and the rule already accepted the answer: the verifier is not asked.
                outcome = "skipped"
            elif isinstance(ask, NotShown):
                refined[index] = ask.judgement
                outcome = "refused"
            else:
                asked.append((index, hooks, ask))
                continue
            self._metrics.verifier_items.labels(mode=mode.value, outcome=outcome).inc()
        if not asked:
            return refined
        verdicts = await self._judge([ask.request for _, _, ask in asked], source)
        for (index, hooks, ask), verdict in zip(asked, verdicts, strict=True):
            refined[index] = hooks.refined(judgements[index], verdict, ask, policy)
            outcome = "judged" if verdict.ok else "fallback"
            self._metrics.verifier_items.labels(mode=mode.value, outcome=outcome).inc()
            if verdict.ok:
                self._metrics.verifier_cache_lookup("verdict", verdict.cached)
        return refined

    def _hooks(self, mode: Mode, judgement: Judgement[Any]) -> Verification[Any] | None:
        """The task's verification hooks, where the item is judged and the mode may ask."""
        if mode is Mode.RULE or not judgement.judged or judgement.task is None:
            return None
        return entry_of(judgement.task).verification

    async def _judge(
        self, requests: list[VerifyRequest], source: VerdictSource
    ) -> list[VerifierJudgement]:
        if self._client is None:
            return [VerifierJudgement(None, error=f"unavailable: {NOT_CONFIGURED}")] * len(requests)
        return await self._client.judge(requests, source)
