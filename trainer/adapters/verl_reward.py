"""verl's reward function, backed by the reward service over HTTP: one self-contained file.

verl (0.7 and later: the reward loop) and TinyV's verl fork load this file by path::

    custom_reward_function:
      path: /opt/reward-verifier/trainer/adapters/verl_reward.py
      name: compute_score

Where the project is installed, ``path: pkg://trainer.adapters.verl_reward`` loads the same
code as a module. The file uses the standard library only and no module of the project, and
runs on Python 3.9 to 3.13, so it works in a trainer's environment where the project is not
(and cannot be) installed, such as the fork's Python 3.10.

Calls it answers:

- verl's reward loop (naive, dapo, gdpo, remote managers): keywords ``data_source``,
  ``solution_str``, ``ground_truth``, ``extra_info``, plus ``reward_router_address`` and
  ``reward_model_tokenizer`` when a reward model is enabled (accepted and ignored), plus the
  ``custom_reward_function.reward_kwargs`` (``url``, ``api_key``, ``options``, ``timeout_s``,
  ``tinyv_setup``, ``tinyv_weight``). Any other keyword is a ``TypeError``.
- TinyV's fork (its prime manager): ``data_source, solution, gt, extra_info, tinyv_setup,
  tinyv_weight`` positionally in a fork-started process pool, read as ``float(result[0][0])``.

Every call returns the same keys, all floats, whatever the task, because verl takes the key
set of a batch's first sample for all of them (see ``RESULT_KEYS``). The result is a dict
that is also its score at index 0 and as a float, for the prime managers.

Routing by ``data_source``: ``grade`` (seed 004's name) or ``critique`` scores the policy's
own critique as a rubric reward model's training reward, a ``critique`` item
(``ground_truth`` the target score in [0, 1]); a row whose
``extra_info`` holds ``tests``, or whose ``ground_truth`` is code test data (verl/PRIME
``{"inputs", "outputs"}`` and the other formats the service reads), is code (``language``
from ``extra_info``, default python); anything else is math. With ``tinyv_setup`` given
(always under the fork) the rewards default to TinyV's 1/0/0; sources containing ``_tinyv``
or ``HardVerify-Math`` are judged in the mode ``tinyv_setup`` names (``addon``, ``mixed``,
``tinyv_only``) with weight ``tinyv_weight``, and the others by the rule alone unless the
options name a mode.

Settings, from the call's keywords first, else the environment: ``VERIFIER_URL`` (comma-
separated for several replicas), ``VERIFIER_API_KEY``, ``VERIFIER_REWARD_OPTIONS`` (a JSON
object of ``/score`` options; the ``options`` keyword overrides it key by key) and
``VERIFIER_REWARD_TIMEOUT_S``. The environment is the only way in under the fork, which has
no ``reward_kwargs``.

A reward is never made up: an item the service cannot judge (``reward: null``: a ground
truth that is missing, empty, a boolean or holds no answer, among others) is logged on
stderr and raises ``UnjudgedItemError``, as does a NaN or infinite ground truth; an item
the service judged with less than it was asked for (status ``unavailable``: no LLM
verifier, so the rule decided) is logged and carries ``degraded: 1.0``.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import sys
import time
import types
import urllib.error
import urllib.request
from typing import Any

DEFAULT_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT_S = 120.0
RETRIES = 4
BACKOFF_S = 0.5
BACKOFF_MAX_S = 8.0
BUSY = 429  # the service's queue is full: come back after Retry-After
BUSY_WAIT_MAX_S = 600.0

# The keys of every result, in order. A key that does not apply to an item's task is 0.0
# (tests on a math row, verifier where the verifier was not asked).
RESULT_KEYS = (
    "score",  # the reward
    "acc",  # 1.0 when fully right: math correct, every test run and passed, the grade on target
    "format",  # tag compliance component
    "thinking",  # short-thinking penalty component (0 or -1)
    "tests_passed",
    "tests_total",
    "verifier",  # the LLM verifier's probability that the answer is right
    "degraded",  # 1.0 when the service could not use a judge the mode asked for
)
# Sources TinyV's fork sends to its verifier.
VERIFIER_SOURCE_MARKS = ("_tinyv", "HardVerify-Math")
# TinyV's reward scale, the default under the fork.
TINYV_SCALE = {"correct": 1.0, "wrong": 0.0, "no_answer": 0.0}
# Keys that mark a ground truth as code test data (the service's test formats).
_TEST_DATA_KEYS = frozenset(
    {"inputs", "outputs", "input_output", "fn_name", "test_list", "entry_point", "testtype"}
    | {"public_test_cases", "private_test_cases"}
)
_MODE_ALIASES = {"tinyv_only": "verifier_only"}
# The data sources of critique rows: seed 004's 'grade', and the service's task name.
_CRITIQUE_SOURCES = ("grade", "critique")
# The critique task's name in results: 'grade' from a service older than the rename.
_CRITIQUE_TASKS = ("critique", "grade")

_LOG = logging.getLogger("reward_verifier.verl_reward")


class RewardServiceError(RuntimeError):
    """The service could not be reached, or refused the request."""


class UnjudgedItemError(RewardServiceError):
    """The service answered, but could not judge the item (its reward is null)."""


class VerlScore(dict):  # type: ignore[type-arg]  # a plain dict subclass on Python 3.9
    """A reward as every verl manager reads one: a dict (the reward loop: ``score`` plus
    logged extras) that is also its score at index 0 and as a float (prime managers:
    ``float(result[0])``; TinyV's fork: ``float(result[0][0])`` after its gather)."""

    def __getitem__(self, key: Any) -> Any:
        return super().__getitem__("score" if type(key) is int and key == 0 else key)

    def __float__(self) -> float:
        return float(super().__getitem__("score"))


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
    timeout_s: float | None = None,
    reward_router_address: str | None = None,
    reward_model_tokenizer: Any = None,
) -> VerlScore:
    """One sample's reward: verl's reward loop (keywords) and TinyV's fork (positionals).

    ``reward_router_address`` and ``reward_model_tokenizer`` are verl's reward-model handles:
    the service is the judge here, so they are not used.
    """
    return compute_score_batch(
        [data_source],
        [solution_str],
        [ground_truth],
        [extra_info],
        tinyv_setup=tinyv_setup,
        tinyv_weight=tinyv_weight,
        url=url,
        api_key=api_key,
        options=options,
        timeout_s=timeout_s,
    )[0]


def compute_score_batch(
    data_sources: list[str],
    solution_strs: list[str],
    ground_truths: list[Any],
    extra_infos: list[dict[str, Any] | None] | None = None,
    *,
    tinyv_setup: str | None = None,
    tinyv_weight: float | None = None,
    url: str | None = None,
    api_key: str | None = None,
    options: dict[str, Any] | None = None,
    timeout_s: float | None = None,
) -> list[VerlScore]:
    """Many samples in one ``/score`` request per option set (verl < 0.7's batch manager)."""
    count = len(data_sources)
    if not len(solution_strs) == len(ground_truths) == count:
        raise ValueError("data_sources, solution_strs and ground_truths differ in length")
    infos = list(extra_infos) if extra_infos is not None else [None] * count
    if len(infos) != count:
        raise ValueError("extra_infos and data_sources differ in length")
    base = _base_options(options, tinyv_setup)
    groups: dict[str, tuple[dict[str, Any], list[int]]] = {}
    for index, source in enumerate(data_sources):
        row_options = _row_options(base, str(source), tinyv_setup, tinyv_weight)
        key = json.dumps(row_options, sort_keys=True, default=_plain)
        groups.setdefault(key, (row_options, []))[1].append(index)
    items = [
        _item(str(data_sources[i]), str(solution_strs[i]), ground_truths[i], infos[i])
        for i in range(count)
    ]
    target = url or os.environ.get("VERIFIER_URL") or DEFAULT_URL
    bearer = api_key or os.environ.get("VERIFIER_API_KEY") or None
    timeout = float(timeout_s or os.environ.get("VERIFIER_REWARD_TIMEOUT_S") or DEFAULT_TIMEOUT_S)
    scores: dict[int, VerlScore] = {}
    for group_options, indexes in groups.values():
        results = _post_score([items[i] for i in indexes], group_options, target, bearer, timeout)
        if len(results) != len(indexes):
            raise RewardServiceError(f"{len(results)} results for {len(indexes)} items")
        for position, index in enumerate(indexes):
            scores[index] = _to_score(results[position], str(data_sources[index]))
    return [scores[i] for i in range(count)]


def _base_options(options: Any, tinyv_setup: str | None) -> dict[str, Any]:
    """The fork's scale (under the fork), then the environment's options, then the call's."""
    merged: dict[str, Any] = dict(TINYV_SCALE) if tinyv_setup is not None else {}
    from_env = os.environ.get("VERIFIER_REWARD_OPTIONS")
    if from_env:
        parsed = json.loads(from_env)
        if not isinstance(parsed, dict):
            raise ValueError("VERIFIER_REWARD_OPTIONS must be a JSON object of /score options")
        merged.update(parsed)
    if options:
        merged.update(dict(options))
    return merged


def _row_options(
    base: dict[str, Any], data_source: str, tinyv_setup: str | None, tinyv_weight: Any
) -> dict[str, Any]:
    merged = dict(base)
    if tinyv_setup is not None:
        if any(mark in data_source for mark in VERIFIER_SOURCE_MARKS):
            merged["mode"] = tinyv_setup
            if tinyv_weight is not None:
                merged["verifier_weight"] = float(tinyv_weight)
        else:
            merged.setdefault("mode", "rule")
    mode = merged.get("mode")
    if mode is not None:
        merged["mode"] = _MODE_ALIASES.get(str(mode), str(mode))
    return merged


def _item(data_source: str, solution: str, ground_truth: Any, extra_info: Any) -> dict[str, Any]:
    info = extra_info if isinstance(extra_info, dict) else {}
    question = info.get("question") or info.get("prompt")
    prompt = question if isinstance(question, str) else ""
    if data_source.strip().lower() in _CRITIQUE_SOURCES:
        return {
            "task": "critique",
            "completion": solution,
            "prompt": prompt,
            "reference": float(ground_truth),
        }
    tests = info.get("tests")
    if tests is None and _is_test_data(ground_truth):
        tests = ground_truth
    if tests is not None and len(tests) > 0:
        item: dict[str, Any] = {
            "task": "code",
            "language": str(info.get("language") or "python"),
            "completion": solution,
            "prompt": prompt,
            "tests": tests,
        }
        for field in ("max_tests", "timeout_s"):
            if info.get(field) is not None:
                item[field] = info[field]
        return item
    return {
        "task": "math",
        "completion": solution,
        "prompt": prompt,
        "reference": _reference(ground_truth),
    }


def _reference(ground_truth: Any) -> Any:
    """A math row's ground truth as the service reads references: text, None (missing) and
    numbers as they are (the service converts a number exactly and says why a boolean,
    a missing or an empty one cannot judge); anything else as its text. NaN and infinities
    have no JSON form, so they are refused here."""
    if isinstance(ground_truth, float) and not math.isfinite(ground_truth):
        message = f"ground truth {ground_truth!r} is not an answer"
        _LOG.error("reward-verifier: %s", message)
        raise UnjudgedItemError(message)
    if ground_truth is None or isinstance(ground_truth, (str, int, float)):
        return ground_truth
    return str(ground_truth)


def _is_test_data(ground_truth: Any) -> bool:
    value = ground_truth
    if isinstance(value, str):
        if not value.lstrip().startswith("{"):
            return False
        try:
            value = json.loads(value)
        except ValueError:
            return False
    return isinstance(value, dict) and not _TEST_DATA_KEYS.isdisjoint(value)


def _to_score(result: dict[str, Any], data_source: str) -> VerlScore:
    status = str(result.get("status"))
    detail = str(result.get("detail") or "")
    if result.get("reward") is None:
        message = f"the service could not judge a {data_source!r} item ({status}): {detail}"
        # The fork turns any exception into a 0.0 reward; this line is what the logs keep.
        _LOG.error("reward-verifier: %s", message)
        raise UnjudgedItemError(message)
    components = result.get("components") or {}
    degraded = status not in ("ok", "timeout")
    if degraded:
        _LOG.warning("reward-verifier: %r item judged %s: %s", data_source, status, detail)
    return VerlScore(
        score=float(result["reward"]),
        acc=_accuracy(str(result.get("task")), components),
        format=float(components.get("format", 0.0)),
        thinking=float(components.get("thinking", 0.0)),
        tests_passed=float(components.get("tests_passed", 0.0)),
        tests_total=float(components.get("tests_total", 0.0)),
        verifier=float(components.get("verifier", 0.0)),
        degraded=1.0 if degraded else 0.0,
    )


def _accuracy(task: str, components: dict[str, Any]) -> float:
    if task == "code":
        # Tests the service's limit left out (tests_capped) are not passed tests.
        total = components.get("tests_total", 0.0)
        passed = total and components.get("tests_passed") == total
        return 1.0 if passed and not components.get("tests_capped") else 0.0
    if task in _CRITIQUE_TASKS:
        grade, target = components.get("score"), components.get("reference")
        on_target = grade is not None and target is not None and abs(grade - target) < 1e-9
        return 1.0 if on_target else 0.0
    return float(components.get("correct", 0.0))


def _post_score(
    items: list[dict[str, Any]],
    options: dict[str, Any],
    url: str,
    api_key: str | None,
    timeout_s: float,
) -> list[dict[str, Any]]:
    """``POST /score``; connection errors, timeouts and 5xx are retried with backoff, each
    retry on the next replica. A 429 (the replica's queue is full) is retried after its
    ``Retry-After`` without using up an attempt, for up to ``BUSY_WAIT_MAX_S`` in all."""
    body = json.dumps({"items": items, "options": options}, default=_plain).encode()
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    bases = [part.strip().rstrip("/") for part in url.split(",") if part.strip()]
    if not bases:
        raise RewardServiceError("no service URL (VERIFIER_URL or the url keyword)")
    first = random.randrange(len(bases))
    failure = ""
    attempt = tries = 0
    busy_since: float | None = None
    while True:
        endpoint = bases[(first + tries) % len(bases)] + "/score"
        tries += 1
        request = urllib.request.Request(endpoint, data=body, headers=headers, method="POST")
        told: float | None = None
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as response:
                results: list[dict[str, Any]] = json.loads(response.read())["results"]
                return results
        except urllib.error.HTTPError as error:
            failure = f"{endpoint} answered {error.code}: {error.read()[:1000]!r}"
            told = _retry_after_s(error.headers.get("Retry-After"))
            if error.code == BUSY:
                busy_since = time.monotonic() if busy_since is None else busy_since
                if time.monotonic() - busy_since < BUSY_WAIT_MAX_S:
                    time.sleep((told or BACKOFF_S) + random.uniform(0, BACKOFF_S))
                    continue
                break
            if error.code < 500:
                raise RewardServiceError(failure) from None
        except OSError as error:  # refused, reset, DNS, timeout (URLError is an OSError)
            failure = f"{endpoint}: {error}"
        if attempt >= RETRIES:
            break
        backoff = min(BACKOFF_S * 2**attempt, BACKOFF_MAX_S) if told is None else told
        time.sleep(backoff + random.uniform(0, BACKOFF_S))
        attempt += 1
    raise RewardServiceError(f"no answer after {tries} attempts; last: {failure}")


def _retry_after_s(value: str | None) -> float | None:
    """A ``Retry-After`` header in seconds (the service's form); None otherwise."""
    if value is None or not value.strip().isdigit():
        return None
    return float(value.strip())


def _plain(value: Any) -> Any:
    """JSON for what verl's rows hold besides plain values: numpy arrays and scalars, and
    OmegaConf containers from ``reward_kwargs``."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "keys"):
        return {key: value[key] for key in value}
    if hasattr(value, "__iter__") and not isinstance(value, (str, bytes)):
        return list(value)
    raise TypeError(f"cannot send a {type(value).__name__} to the service")


def _register_when_loaded_by_path() -> None:
    """Make this file's functions picklable when a loader ran it under a made-up name.

    verl's ``path:`` loader (``custom_module_<hash>``) and the fork's (``custom_module``) run
    the file without adding it to ``sys.modules``, so pickle cannot find ``compute_score``
    when the fork ships it to its process pool. A stand-in module under that name fixes
    this for pools forked from this process. Ray's ``remote`` manager ships the function to
    processes that never loaded the file: cloudpickle must copy it by value there, so the
    stand-in is registered for that with every cloudpickle already imported (Ray's included).
    """
    current = sys.modules.get(__name__)
    if current is not None and not getattr(current, "_LOADED_BY_PATH", False):
        return  # imported as a module (pkg://): pickled by reference as usual
    stand_in = types.ModuleType(__name__, __doc__)
    stand_in.__dict__.update(globals())
    stand_in.__dict__["_LOADED_BY_PATH"] = True
    sys.modules[__name__] = stand_in
    for name in ("cloudpickle", "ray.cloudpickle"):
        register = getattr(sys.modules.get(name), "register_pickle_by_value", None)
        if register is not None:
            register(stand_in)


_register_when_loaded_by_path()
