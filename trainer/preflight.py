"""Can this run's rewards be computed? Asked before the first step and watched during it.

A q run on a machine without q used to train to the end having learned nothing: every
item ``unavailable``, every reward None, loss 0. Before the first step the trainer asks
each service URL's ``/ready`` and scores one probe item per task of the dataset with the
run's options (so a verifier mode meets the verifier); if a reward cannot be computed it
stops with the service's reason, unless ``reward.allow_unavailable``. During training
:class:`UnavailableGuard` stops the run after ``reward.max_unavailable_steps`` steps in a
row where most rewards were unavailable.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import httpx
from transformers import TrainerCallback, TrainerControl, TrainerState, TrainingArguments

from services.contract.client import Client, ClientSettings, RewardServiceError, Status
from services.contract.client.http import Item
from trainer.config import RewardSection, current_task_name
from trainer.remote_reward import build_item

if TYPE_CHECKING:
    from trainer.remote_reward import RemoteReward

log = logging.getLogger(__name__)

# Completions that reach each scorer's judge: a math answer the rule does not accept (so
# addon asks the verifier), a program in each language, a critique's grade line.
_PROBE_COMPLETIONS = {
    "math": "The answer is \\boxed{0.123456789}.",
    "critique": "The answer is partly right.\n\nTotal Score: 5/10",
    "python": "```python\nprint()\n```",
    "q": "```q\nshow 0\n```",
}


class RewardsUnavailable(RuntimeError):
    """The service cannot compute this run's rewards; the message says why."""


def probe_items(examples: Sequence[dict[str, Any]], reward: RewardSection) -> list[Item]:
    """One service item per kind of row (task, and language for code) in ``examples``."""
    items: list[Item] = []
    seen: set[tuple[str, str]] = set()
    for row in examples:
        task = current_task_name(str(row.get("task") or reward.task))
        kind = (task, str(row.get("language") or reward.language) if task == "code" else "")
        if kind in seen:
            continue
        seen.add(kind)
        completion = _PROBE_COMPLETIONS[kind[1] or task]
        item = build_item(len(items), "preflight probe", completion, row, reward)
        if item is not None:
            items.append(item)
    return items


def _kind(item: Item) -> str:
    return f"{item['task']} ({item['language']})" if item["task"] == "code" else str(item["task"])


def _unreachable(settings: ClientSettings) -> list[str]:
    """The URLs whose ``/ready`` does not answer; a not-ready one is logged, since its
    missing backend may be one this run does not use (the probes decide)."""
    problems = []
    for url in settings.urls:
        with Client(dataclasses.replace(settings, urls=(url,))) as client:
            try:
                ready = client.ready()
            except (httpx.HTTPError, ValueError) as exc:  # ValueError: not the wire's answer
                problems.append(f"{url}/ready did not answer: {exc}")
                continue
        if not ready.ready:
            backends = ready.model_dump(mode="json")["backends"]
            log.warning("preflight: %s/ready says not ready: %s", url, backends)
    return problems


def _probe_problems(
    settings: ClientSettings, items: list[Item], options: dict[str, Any]
) -> list[str]:
    with Client(settings) as client:
        try:
            results = client.score(items, options)
        except RewardServiceError as exc:
            return [str(exc)]
    return [
        f"{_kind(item)} rewards are {result.status}: {result.detail}"
        for item, result in zip(items, results, strict=True)
        if result.status in (Status.UNAVAILABLE, Status.ERROR)
    ]


def preflight(
    settings: ClientSettings, examples: Sequence[dict[str, Any]], reward: RewardSection
) -> None:
    """Raise :class:`RewardsUnavailable` with the reasons when a reward cannot be computed
    (only a warning with ``reward.allow_unavailable``)."""
    problems = _unreachable(settings)
    if not problems:
        problems = _probe_problems(settings, probe_items(examples, reward), reward.options())
    if not problems:
        log.info("preflight: the service computes every reward this run needs")
        return
    reasons = "; ".join(problems)
    if reward.allow_unavailable:
        log.warning("preflight: %s (training anyway: --allow-unavailable)", reasons)
        return
    raise RewardsUnavailable(
        f"the run's rewards cannot be computed, so it would learn nothing: {reasons}. "
        "Fix the service, or pass --allow-unavailable to train anyway"
    )


class UnavailableGuard(TrainerCallback):
    """Stops training after ``limit`` steps in a row where most rewards were unavailable."""

    def __init__(self, reward: RemoteReward, limit: int) -> None:
        self.reward = reward
        self.limit = limit
        self.reason: str | None = None

    def on_step_end(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        streak = self.reward.unavailable_streak
        if self.limit and streak >= self.limit:
            self.reason = (
                f"most rewards were unavailable in {streak} steps in a row (up to step "
                f"{state.global_step}): {self.reward.last_unavailable_detail}; stopped "
                "(reward.max_unavailable_steps)"
            )
            log.error("%s", self.reason)
            control.should_training_stop = True
