"""verl reward adapter: ``compute_score`` and its batch form, backed by the service over HTTP.

In a verl config::

    custom_reward_function:
      path: /path/to/reward-verifier/trainer/adapters/verl.py
      name: compute_score            # or compute_score_batch with reward_model.reward_manager=batch

The service URL comes from ``VERIFIER_URL`` (comma-separated for several replicas), the
bearer key from ``VERIFIER_API_KEY``; both can also be passed as keyword arguments
(verl forwards ``custom_reward_function.reward_kwargs``). A row is a code item when its
``extra_info`` holds ``tests`` (with an optional ``language``, default python); otherwise
it is math with ``ground_truth`` as the reference. The returned dict's ``score`` is the
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


def _item(
    data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None
) -> dict[str, Any]:
    info = extra_info or {}
    prompt = str(info.get("question") or info.get("prompt") or "")
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
    return {"task": "math", "completion": solution_str, "prompt": prompt,
            "reference": str(ground_truth), "id": data_source}


def _score(result: dict[str, Any]) -> dict[str, Any]:
    if result["reward"] is None:
        # verl needs a number; inventing one would train on a verdict nobody made.
        raise RewardServiceError(
            f"the service could not judge an item ({result['status']}): {result['detail']}"
        )
    components: dict[str, float] = result.get("components") or {}
    acc = components.get("correct")
    if acc is None and "tests_total" in components:
        acc = float(components["tests_total"] > 0
                    and components.get("tests_passed") == components["tests_total"])
    scored: dict[str, Any] = {"score": float(result["reward"]), "acc": float(acc or 0.0)}
    scored.update({k: components[k] for k in _LOGGED_COMPONENTS if k in components})
    return scored


def compute_score_batch(
    data_sources: list[str],
    solution_strs: list[str],
    ground_truths: list[Any],
    extra_infos: list[dict[str, Any] | None] | None = None,
    *,
    url: str | None = None,
    api_key: str | None = None,
    options: dict[str, Any] | None = None,
    **_: Any,
) -> list[dict[str, Any]]:
    """verl's batch reward manager form: one ``/score`` request for the whole batch."""
    infos = extra_infos or [None] * len(solution_strs)
    items = [
        _item(source, solution, truth, info)
        for source, solution, truth, info in zip(
            data_sources, solution_strs, ground_truths, infos, strict=True
        )
    ]
    client = _client(url or os.environ.get("VERIFIER_URL", DEFAULT_URL),
                     api_key or os.environ.get("VERIFIER_API_KEY"))
    return [_score(result) for result in client.score(items, options or {})]


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """verl's per-sample form (naive reward manager)."""
    return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info],
                               **kwargs)[0]
