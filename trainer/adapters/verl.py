"""verl reward adapter: ``compute_score`` and its batch form, backed by the service over HTTP.

In a verl config::

    custom_reward_function:
      path: /path/to/reward-verifier/trainer/adapters/verl.py
      name: compute_score            # or compute_score_batch with reward_model.reward_manager=batch

Every reward manager's call works: naive/dapo (keywords), upstream prime (four
positionals), TinyV's verl fork (prime with six positionals: ``data_source, solution_str,
ground_truth, extra_info, tinyv_setup, tinyv_weight``) and batch. Unknown keywords raise
``TypeError`` rather than being ignored.

Routing by ``data_source``, as the fork does: ``grade`` scores the policy's own critique
(training a rubric reward model, ``ground_truth`` the target score in [0, 1]); a source
ending in ``_tinyv`` is math judged in the mode ``tinyv_setup`` names (``addon``, ``mixed``,
``tinyv_only``) with weight ``tinyv_weight``; any other source is math (or code, when
``extra_info`` holds ``tests``, with an optional ``language``, default python) in the mode
``options`` gives, else the rule alone under the fork (``tinyv_setup`` given), else the
service default.

The service URL comes from ``VERIFIER_URL`` (comma-separated for several replicas), the
bearer key from ``VERIFIER_API_KEY``; both can also be passed as keyword arguments
(verl forwards ``custom_reward_function.reward_kwargs``). The result's ``score`` is the
reward; ``acc`` (1 if fully right) and the per-component values go to verl's logs.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from trainer.config import ServiceSection
from trainer.service_client import ClientSettings, RewardServiceError, ServiceClient

DEFAULT_URL = "http://127.0.0.1:8000"
# Numeric components passed on to verl (strings would break its metric aggregation).
_LOGGED_COMPONENTS = ("answer", "format", "thinking", "tests_passed", "tests_total")


@lru_cache(maxsize=8)
def _client(url: str, api_key: str | None) -> ServiceClient:
    # One connection pool per (URL, key), reused across verl's many calls.
    section = ServiceSection.model_validate({"url": url})  # the validator splits "a,b"
    return ServiceClient(ClientSettings.from_section(section, api_key))


class VerlScore(dict[str, Any]):
    """A reward as every verl manager reads one: a dict (naive, dapo: ``score`` plus logged
    extras) that is also its score at index 0 and as a float (prime: ``float(result[0])``;
    TinyV's fork: ``float(result[0][0])`` after its gather)."""

    def __getitem__(self, key: Any) -> Any:
        return super().__getitem__("score" if type(key) is int and key == 0 else key)

    def __float__(self) -> float:
        return float(super().__getitem__("score"))


def _is_tinyv(data_source: str) -> bool:
    return "_tinyv" in data_source


def _item(
    data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None
) -> dict[str, Any]:
    info = extra_info or {}
    prompt = str(info.get("question") or info.get("prompt") or "")
    if data_source.lower().strip() == "grade":
        return {
            "task": "grade",
            "completion": solution_str,
            "prompt": prompt,
            "reference": float(ground_truth),
            "id": data_source,
        }
    if info.get("tests"):
        item: dict[str, Any] = {
            "task": "code",
            "language": info.get("language", "python"),
            "completion": solution_str,
            "prompt": prompt,
            "tests": [{k: v for k, v in dict(t).items() if v is not None} for t in info["tests"]],
        }
        if info.get("max_tests"):
            item["max_tests"] = int(info["max_tests"])
        return item
    return {
        "task": "math",
        "completion": solution_str,
        "prompt": prompt,
        "reference": str(ground_truth),
        "id": data_source,
    }


def _score(result: dict[str, Any]) -> VerlScore:
    if result["reward"] is None:
        # verl needs a number; inventing one would train on a verdict nobody made.
        raise RewardServiceError(
            f"the service could not judge an item ({result['status']}): {result['detail']}"
        )
    components: dict[str, float] = result.get("components") or {}
    acc = components.get("correct")
    if acc is None and "tests_total" in components:
        acc = float(
            components["tests_total"] > 0
            and components.get("tests_passed") == components["tests_total"]
        )
    scored = VerlScore(score=float(result["reward"]), acc=float(acc or 0.0))
    scored.update({k: components[k] for k in _LOGGED_COMPONENTS if k in components})
    return scored


def _other_options(options: dict[str, Any] | None, tinyv_setup: str | None) -> dict[str, Any]:
    """Rows not marked ``_tinyv``: in the fork (``tinyv_setup`` given) the rule alone judges
    them, unless ``options`` names a mode."""
    merged = dict(options or {})
    if tinyv_setup is not None:
        merged.setdefault("mode", "rule")
    return merged


def _tinyv_options(
    options: dict[str, Any] | None, tinyv_setup: str | None, tinyv_weight: float | None
) -> dict[str, Any]:
    """The request options for ``*_tinyv`` rows: the fork's setup and weight on top."""
    merged = dict(options or {})
    if tinyv_setup is not None:
        merged["mode"] = tinyv_setup  # the service reads 'tinyv_only' as verifier_only
    if tinyv_weight is not None:
        merged["verifier_weight"] = float(tinyv_weight)
    return merged


def compute_score_batch(
    data_sources: list[str],
    solution_strs: list[str],
    ground_truths: list[Any],
    extra_infos: list[dict[str, Any] | None] | None = None,
    *,
    url: str | None = None,
    api_key: str | None = None,
    options: dict[str, Any] | None = None,
    tinyv_setup: str | None = None,
    tinyv_weight: float | None = None,
) -> list[VerlScore]:
    """verl's batch reward manager form: one ``/score`` request per option set (two at most:
    ``*_tinyv`` rows with the fork's setup, and the others)."""
    infos = extra_infos or [None] * len(solution_strs)
    items = [
        _item(source, solution, truth, info)
        for source, solution, truth, info in zip(
            data_sources, solution_strs, ground_truths, infos, strict=True
        )
    ]
    client = _client(
        url or os.environ.get("VERIFIER_URL", DEFAULT_URL),
        api_key or os.environ.get("VERIFIER_API_KEY"),
    )
    groups: dict[bool, tuple[dict[str, Any], list[int]]] = {
        True: (_tinyv_options(options, tinyv_setup, tinyv_weight), []),
        False: (_other_options(options, tinyv_setup), []),
    }
    for index, source in enumerate(data_sources):
        groups[_is_tinyv(source)][1].append(index)
    scores: list[VerlScore | None] = [None] * len(items)
    for group_options, indexes in groups.values():
        if indexes:
            results = client.score([items[i] for i in indexes], group_options)
            for index, result in zip(indexes, results, strict=True):
                scores[index] = _score(result)
    return [score for score in scores if score is not None]


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    tinyv_setup: str | None = None,
    tinyv_weight: float | None = None,
    *,
    url: str | None = None,
    api_key: str | None = None,
    options: dict[str, Any] | None = None,
) -> VerlScore:
    """verl's per-sample form (naive, dapo and prime managers, and TinyV's fork)."""
    return compute_score_batch(
        [data_source], [solution_str], [ground_truth], [extra_info],
        url=url, api_key=api_key, options=options,
        tinyv_setup=tinyv_setup, tinyv_weight=tinyv_weight,
    )[0]  # fmt: skip
