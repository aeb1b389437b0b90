"""The GRPO reward function: scores completions through the reward service over HTTP.

TRL 1.16 calls reward functions as ``f(prompts=, completions=, completion_ids=, **kwargs)``
where kwargs hold the dataset's columns (one value per completion) plus ``trainer_state``,
``log_metric`` and ``log_extra``. An instance of :class:`RemoteReward` is such a function;
its ``__call__`` is a coroutine, which TRL detects and awaits on its own event-loop thread.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from services.contract.protocol import ScoreResult, Status, task_wire
from trainer.config import RewardSection, current_task_name
from trainer.prompts import message_text
from trainer.service_client import Item

log = logging.getLogger(__name__)

MetricLogger = Callable[[str, float], None]
ExtraLogger = Callable[[str, list[Any]], None]


class ScoreClient(Protocol):
    """What the reward needs from a transport: AsyncServiceClient (HTTP) in training."""

    async def score(self, items: Sequence[Item], options: dict[str, Any]) -> list[ScoreResult]: ...

    async def aclose(self) -> None: ...


def _column(kwargs: dict[str, Any], name: str, size: int) -> list[Any]:
    values = kwargs.get(name)
    return list(values) if values is not None else [None] * size


def build_item(
    index: int, prompt: str, completion: str, row: dict[str, Any], reward: RewardSection
) -> Item | None:
    """The service item for one completion; None when the row gives nothing to judge. The
    task's own fields come from its wire side (``row_fields`` in its folder's wire.py)."""
    task = current_task_name(str(row.get("task") or reward.task))
    build = task_wire(task).row_fields
    defaults = {
        "language": reward.language,
        "timeout_s": reward.test_timeout_s,
        "max_tests": reward.max_tests,
    }
    fields = build(row, defaults) if build is not None else None
    if fields is None:
        return None
    return {"task": task, "id": index, "prompt": prompt, "completion": completion, **fields}


def solved(result: ScoreResult) -> float | None:
    """1 when the item is fully right (math: correct; code: every test passed)."""
    components = result.components
    if "correct" in components:
        return components["correct"]
    if "tests_total" in components and "tests_passed" in components:
        # Tests the service's limit left out (tests_capped) are not passed tests.
        return float(
            components["tests_total"] > 0
            and components["tests_passed"] == components["tests_total"]
            and not components.get("tests_capped")
        )
    return None


def recorded(result: ScoreResult | None) -> dict[str, Any]:
    """A result's fields as the debug and evaluation logs record them (``skipped``: the row
    gave nothing to judge)."""
    if result is None:
        return {"status": "skipped", "components": None, "extracted": None, "detail": None}
    return {
        "status": result.status.value,
        "components": result.components,
        "extracted": result.extracted,
        "detail": result.detail,
    }


class RemoteReward:
    """Async TRL reward function backed by ``POST /score``.

    Returns one reward per completion: the service's reward, or None where the row has
    nothing to judge or the service could not judge the item (TRL turns None into NaN
    and leaves it out of the group statistics). Service failure raises.

    A call where most items come back ``unavailable`` is logged with the service's reason
    and counted in ``unavailable_streak`` (reset by a call where most were judged), which
    :class:`trainer.preflight.UnavailableGuard` turns into a stop.
    """

    # TRL names the reward in its metrics after ``__name__`` (rewards/<name>/mean).
    __name__ = "verifier"

    def __init__(
        self, client: ScoreClient, reward: RewardSection, debug_log: Path | None = None
    ) -> None:
        self.client = client
        self.reward = reward
        self.options = reward.options()
        self.debug_log = debug_log
        self._calls = 0
        self.unavailable_streak = 0
        self.last_unavailable_detail: str | None = None

    async def __call__(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        completion_ids: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        size = len(completions)
        columns = {
            name: _column(kwargs, name, size) for name in ("task", "reference", "language", "tests")
        }
        texts = [message_text(c) for c in completions]
        questions = [message_text(p) for p in prompts]
        items: list[Item] = []
        for index in range(size):
            row = {name: values[index] for name, values in columns.items()}
            item = build_item(index, questions[index], texts[index], row, self.reward)
            if item is not None:
                items.append(item)

        started = time.perf_counter()
        results = await self.client.score(items, self.options)
        elapsed = time.perf_counter() - started

        by_index: dict[int, ScoreResult] = {
            int(item["id"]): r for item, r in zip(items, results, strict=True)
        }
        rewards: list[float | None] = [
            by_index[i].reward if i in by_index else None for i in range(size)
        ]
        step = getattr(kwargs.get("trainer_state"), "global_step", self._calls)
        self._track_unavailable(step, list(by_index.values()), kwargs.get("log_metric"))
        self._log_metrics(list(by_index.values()), elapsed, kwargs.get("log_metric"))
        log_extra: ExtraLogger | None = kwargs.get("log_extra")
        if log_extra is not None:
            log_extra(
                "verifier_status",
                [by_index[i].status.value if i in by_index else "skipped" for i in range(size)],
            )
        self._write_debug(step, questions, texts, columns, by_index, rewards)
        self._calls += 1
        return rewards

    def _track_unavailable(
        self, step: int, results: list[ScoreResult], log_metric: MetricLogger | None
    ) -> None:
        unavailable = [r for r in results if r.status is Status.UNAVAILABLE]
        if unavailable:
            self.last_unavailable_detail = unavailable[0].detail
            log.warning(
                "step %d: %d of %d rewards unavailable: %s",
                step + 1,
                len(unavailable),
                len(results),
                self.last_unavailable_detail,
            )
        mostly = bool(results) and 2 * len(unavailable) > len(results)
        self.unavailable_streak = self.unavailable_streak + 1 if mostly else 0
        if log_metric is not None:
            log_metric("verifier/unavailable_step", float(mostly))

    def _log_metrics(
        self, results: list[ScoreResult], elapsed: float, log_metric: MetricLogger | None
    ) -> None:
        if log_metric is None:
            return
        log_metric("verifier/seconds", elapsed)
        if not results:
            return
        sums: dict[str, float] = defaultdict(float)
        counts: Counter[str] = Counter()
        for result in results:
            for name, value in result.components.items():
                sums[name] += float(value)
                counts[name] += 1
        for name, total in sorted(sums.items()):
            log_metric(f"verifier/{name}", total / counts[name])
        solved_values = [v for v in map(solved, results) if v is not None]
        if solved_values:
            log_metric("verifier/accuracy", sum(solved_values) / len(solved_values))
        statuses = Counter(result.status.value for result in results)
        for status in ("ok", "timeout", "error", "unavailable"):
            log_metric(f"verifier/status_{status}", statuses[status] / len(results))

    def _write_debug(
        self,
        step: int,
        questions: list[str],
        texts: list[str],
        columns: dict[str, list[Any]],
        by_index: dict[int, ScoreResult],
        rewards: list[float | None],
    ) -> None:
        every = self.reward.debug_log_every
        if self.debug_log is None or every == 0 or step % every != 0:
            return
        count = len(texts) if self.reward.debug_samples is None else self.reward.debug_samples
        self.debug_log.parent.mkdir(parents=True, exist_ok=True)
        with self.debug_log.open("a", encoding="utf-8") as handle:
            for index in range(min(count, len(texts))):
                result = by_index.get(index)
                record = {
                    "step": step,
                    "call": self._calls,
                    "index": index,
                    "prompt": questions[index],
                    "completion": texts[index],
                    "reference": columns["reference"][index],
                    "tests": columns["tests"][index],
                    "language": columns["language"][index],
                    "task": columns["task"][index],
                    "reward": rewards[index],
                    **recorded(result),
                }
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
