"""OpenRLHF's reward hook: ``reward_func(queries, prompts, labels)`` scored by the service.

OpenRLHF (0.11: ``--reward.remote_url``; before 0.10.2: ``--remote_rm_url``) loads a
``.py`` file given as its remote reward URL by path and calls its ``reward_func`` from a
thread for each sample. This file posts those samples to the service's ``/get_reward``
with this run's scoring options, which a plain URL cannot send::

    export VERIFIER_URL=http://verifier-0:8000,http://verifier-1:8000
    export VERIFIER_REWARD_OPTIONS='{"correct": 1, "wrong": 0, "extraction": "boxed"}'
    python -m openrlhf.cli.train_ppo_ray ... \\
        --reward.remote_url /opt/reward-verifier/trainer/adapters/openrlhf_reward.py

Settings, read when the first sample is scored:

- ``VERIFIER_URL``: the service's base URL(s), comma-separated (default
  ``http://127.0.0.1:8000``); several are used in turn, each retry on the next;
- ``VERIFIER_API_KEY``: the service's key, sent as a bearer header;
- ``VERIFIER_REWARD_OPTIONS``: a JSON object of ``/score`` options (``mode``,
  ``extraction``, ``correct``, ``format_weight``, ...);
- ``VERIFIER_REWARD_TIMEOUT_S``: seconds per request (default 120).

The requests go through the project's client (:class:`services.contract.client.Client`: one
pooled connection, retries with backoff, 429 waits), so the project must be importable
where OpenRLHF runs: installed (``pip install reward-verifier``), or this file used in
place in a checkout. The answer is ``/get_reward``'s own, ``{"rewards", "scores",
"extra_logs"}``, as OpenRLHF reads it from a URL. A service that cannot be reached
raises :class:`services.contract.client.RewardServiceError`, never a made-up reward.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from services.contract.client import Client

DEFAULT_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT_S = 120.0

_lock = threading.Lock()
_client: Client | None = None
_options: dict[str, Any] | None = None


class RewardSettingsError(ValueError):
    """An environment setting this hook cannot use; the message names it."""


def reward_options(environ: dict[str, str] | os._Environ[str] = os.environ) -> dict[str, Any]:
    """``VERIFIER_REWARD_OPTIONS`` as an options object ({} when unset)."""
    text = environ.get("VERIFIER_REWARD_OPTIONS", "").strip()
    if not text:
        return {}
    try:
        options = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RewardSettingsError(f"VERIFIER_REWARD_OPTIONS is not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise RewardSettingsError("VERIFIER_REWARD_OPTIONS must be a JSON object")
    return options


def _import_client() -> type[Client]:
    try:
        from services.contract.client import Client
    except ImportError:
        # Loaded by path from a checkout: the repository root holds the services package.
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        try:
            from services.contract.client import Client
        except ImportError as exc:
            raise ImportError(
                "the reward-verifier client is not importable here: pip install "
                f"reward-verifier on the OpenRLHF nodes, or use this file in a checkout ({exc})"
            ) from exc
    return Client


def _connect() -> tuple[Client, dict[str, Any]]:
    global _client, _options
    with _lock:
        if _client is None or _options is None:
            urls = [u.strip() for u in os.environ.get("VERIFIER_URL", DEFAULT_URL).split(",")]
            timeout = os.environ.get("VERIFIER_REWARD_TIMEOUT_S", str(DEFAULT_TIMEOUT_S))
            try:
                timeout_s = float(timeout)
            except ValueError:
                raise RewardSettingsError(
                    f"VERIFIER_REWARD_TIMEOUT_S must be a number, got {timeout!r}"
                ) from None
            _options = reward_options()
            _client = _import_client()(
                [u for u in urls if u],
                api_key=os.environ.get("VERIFIER_API_KEY") or None,
                timeout_s=timeout_s,
            )
        return _client, _options


def reset() -> None:
    """Close the connection; the next call reads the environment again."""
    global _client, _options
    with _lock:
        if _client is not None:
            _client.close()
        _client, _options = None, None


def reward_func(queries: list[str], prompts: list[str], labels: list[Any]) -> dict[str, Any]:
    """OpenRLHF's hook: rewards for ``queries`` (prompt + response, as decoded).

    Returns ``{"rewards": [...], "scores": [...], "extra_logs": {...}}``, one value per
    sample, as ``/get_reward`` answers.
    """
    client, options = _connect()
    answer = client.get_reward(list(queries), list(prompts), list(labels), options or None)
    return answer.model_dump()
