"""verl's reward function, backed by the reward service over HTTP: one self-contained file.

verl (0.7 and later: the reward loop) and TinyV's verl fork load this file by path::

    custom_reward_function:
      path: /opt/reward-verifier/trainer/adapters/verl_reward.py
      name: compute_score_async   # verl's reward loop; compute_score for the remote manager

Where the project is installed, ``path: pkg://trainer.adapters.verl_reward`` loads the same
code as a module. The file uses the standard library only and no module of the project, and
runs on Python 3.9 to 3.13, so it works in a trainer's environment where the project is not
(and cannot be) installed, such as the fork's Python 3.10. The asynchronous function uses
aiohttp where it can be imported (verl's reward loop imports it, so it is there wherever
that loop runs), else the standard library's HTTP client in a thread.

Two functions, one per way of being called:

- ``compute_score_async``: an ``async def`` that verl's reward loop awaits (managers naive,
  dapo, gdpo, rate_limited). The loop starts a step's samples together, and the calls that
  arrive together are sent as a few batched ``/score`` requests: a call waits up to
  ``linger_s`` (default 0.02 s) for others, a request holds up to ``batch_size`` items
  (default 256), and at most ``max_in_flight`` requests (default 8) are open at once, over
  one pooled HTTP client per event loop. A 4,096-sample step is tens of requests, and the
  copies of an answer in a GRPO group reach the service's deduplication.
- ``compute_score``: the same, synchronous, one request per call: verl's remote manager
  (which refuses an async function), TinyV's fork (positional calls in a fork-started
  process pool, read as ``float(result[0][0])``), and any caller that needs a plain function.

Both take verl's keywords ``data_source``, ``solution_str``, ``ground_truth``, ``extra_info``,
plus ``reward_router_address`` and ``reward_model_tokenizer`` when a reward model is enabled
(accepted and ignored), plus the ``custom_reward_function.reward_kwargs`` (``url``,
``api_key``, ``options``, ``timeout_s``, ``tinyv_setup``, ``tinyv_weight``; the async one
also ``batch_size``, ``linger_s``, ``max_in_flight``). The fork passes ``data_source,
solution, gt, extra_info, tinyv_setup, tinyv_weight`` positionally.

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
object of ``/score`` options; the ``options`` keyword overrides it key by key),
``VERIFIER_REWARD_TIMEOUT_S``, and for the async function ``VERIFIER_REWARD_BATCH_SIZE``,
``VERIFIER_REWARD_LINGER_S`` and ``VERIFIER_REWARD_MAX_IN_FLIGHT``. The environment is the
only way in under the fork, which has no ``reward_kwargs``.

A reward is never made up. A service that cannot be reached or refuses the request raises
``RewardServiceError``; an item the service cannot judge (``reward: null``: a ground truth
that is missing, empty, a boolean or holds no answer, among others) is logged on stderr
and raises ``UnjudgedItemError``, as does a NaN or infinite ground truth; a call the adapter
cannot turn into a request (an unknown keyword, options that are not an object) raises
``RewardInputError``. All are ``RewardError``, a ``BaseException``: verl's rate_limited
manager and TinyV's fork turn any ``Exception`` of the reward function into a reward of 0.0,
and these pass through them, so the step stops with the reason. An item the service judged
with less than it was asked for (status ``unavailable``: no LLM verifier, so the rule
decided) is logged and carries ``degraded: 1.0``.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import logging
import math
import os
import random
import sys
import threading
import time
import types
import urllib.error
import urllib.request
import weakref
from collections.abc import Iterator
from typing import Any

DEFAULT_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT_S = 120.0
RETRIES = 4
BACKOFF_S = 0.5
BACKOFF_MAX_S = 8.0
BUSY = 429  # the service's queue is full: come back after Retry-After
BUSY_WAIT_MAX_S = 600.0
# compute_score_async: the most items in one request, how long the first call of a request
# waits for others, and the most requests open at once (per event loop).
DEFAULT_BATCH_SIZE = 256
DEFAULT_LINGER_S = 0.02
DEFAULT_MAX_IN_FLIGHT = 8

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


class RewardError(BaseException):
    """A reward that could not be computed, with the reason.

    A ``BaseException``, not an ``Exception``: verl's rate_limited reward manager and TinyV's
    fork catch every ``Exception`` of the reward function and score the sample 0.0. This
    passes through their handlers, so the step stops with the reason instead of training on
    a made-up number."""


class RewardServiceError(RewardError):
    """The service could not be reached, or refused the request."""


class UnjudgedItemError(RewardServiceError):
    """The service answered, but could not judge the item (its reward is null)."""


class RewardInputError(RewardError):
    """A call the adapter cannot turn into a request: an unknown keyword, options that are
    not a JSON object, a critique target that is not a number."""


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
    **unknown: Any,
) -> VerlScore:
    """One sample's reward in one request: verl's remote manager (keywords), TinyV's fork
    (positionals), and any caller that needs a synchronous function.

    ``reward_router_address`` and ``reward_model_tokenizer`` are verl's reward-model handles:
    the service is the judge here, so they are not used.
    """
    _refuse_unknown(unknown)
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


async def compute_score_async(
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
    batch_size: int | None = None,
    linger_s: float | None = None,
    max_in_flight: int | None = None,
    reward_router_address: str | None = None,
    reward_model_tokenizer: Any = None,
    **unknown: Any,
) -> VerlScore:
    """One sample's reward, sent with the other samples being scored at the same time.

    verl's reward loop awaits this for each sample of a step, all started together; the calls
    of one event loop are coalesced into batched ``/score`` requests (see the module's
    docstring for ``batch_size``, ``linger_s`` and ``max_in_flight``).
    """
    _refuse_unknown(unknown)
    with _reasons():
        row_options = _row_options(
            _base_options(options, tinyv_setup), str(data_source), tinyv_setup, tinyv_weight
        )
        item = _item(str(data_source), str(solution_str), ground_truth, extra_info)
        batching = (
            _positive(batch_size, "VERIFIER_REWARD_BATCH_SIZE", DEFAULT_BATCH_SIZE, int),
            _positive(linger_s, "VERIFIER_REWARD_LINGER_S", DEFAULT_LINGER_S, float, zero=True),
            _positive(max_in_flight, "VERIFIER_REWARD_MAX_IN_FLIGHT", DEFAULT_MAX_IN_FLIGHT, int),
        )
        batcher = _batcher(_connection(url, api_key, timeout_s), batching)
    pending = batcher.submit(item, row_options)
    try:
        result = await pending
    except asyncio.CancelledError:
        # verl's rate_limited manager cancels a call after its reward.timeout and scores the
        # sample 0.0 on the TimeoutError that follows; this error goes through instead.
        trouble = f"; last failed attempt: {batcher.trouble}" if batcher.trouble else ""
        raise RewardServiceError(
            f"the call was cancelled before the service answered (verl's rate_limited "
            f"manager does so after reward.timeout seconds): no reward for a "
            f"{data_source!r} item{trouble}"
        ) from None
    with _reasons():
        return _to_score(result, str(data_source))


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
    with _reasons():
        count = len(data_sources)
        if not len(solution_strs) == len(ground_truths) == count:
            raise RewardInputError("data_sources, solution_strs and ground_truths differ in length")
        infos = list(extra_infos) if extra_infos is not None else [None] * count
        if len(infos) != count:
            raise RewardInputError("extra_infos and data_sources differ in length")
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
        connection = _connection(url, api_key, timeout_s)
        scores: dict[int, VerlScore] = {}
        for group_options, indexes in groups.values():
            results = _post_score([items[i] for i in indexes], group_options, connection)
            for position, index in enumerate(indexes):
                scores[index] = _to_score(results[position], str(data_sources[index]))
        return [scores[i] for i in range(count)]


@contextlib.contextmanager
def _reasons() -> Iterator[None]:
    """Any other failure as a :class:`RewardError`, so that no reward manager scores it 0.0."""
    try:
        yield
    except RewardError:
        raise
    except Exception as error:
        message = f"the reward could not be computed: {type(error).__name__}: {error}"
        _LOG.error("reward-verifier: %s", message)
        raise RewardInputError(message) from error


def _refuse_unknown(unknown: dict[str, Any]) -> None:
    # A misspelt reward_kwargs entry must not pass silently (nor as a TypeError, which
    # verl's rate_limited manager would score 0.0).
    if unknown:
        names = ", ".join(sorted(unknown))
        raise RewardInputError(f"compute_score got unknown keyword arguments: {names}")


def _positive(value: Any, env: str, default: float, kind: type, zero: bool = False) -> Any:
    raw = value if value is not None else os.environ.get(env) or default
    try:
        number = kind(raw)
    except (TypeError, ValueError):
        raise RewardInputError(f"{env} (or its keyword) must be a number, not {raw!r}") from None
    if not (number >= 0 if zero else number > 0):
        least = "0 or more" if zero else "above 0"
        raise RewardInputError(f"{env} (or its keyword) must be {least}, not {raw!r}")
    return number


def _connection(
    url: str | None, api_key: str | None, timeout_s: float | None
) -> tuple[str, str | None, float]:
    """Where requests go, their bearer token and their timeout: keywords, else environment."""
    target = url or os.environ.get("VERIFIER_URL") or DEFAULT_URL
    bearer = api_key or os.environ.get("VERIFIER_API_KEY") or None
    timeout = float(timeout_s or os.environ.get("VERIFIER_REWARD_TIMEOUT_S") or DEFAULT_TIMEOUT_S)
    return target, bearer, timeout


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


def _request(
    items: list[dict[str, Any]], options: dict[str, Any], api_key: str | None
) -> tuple[bytes, dict[str, str]]:
    body = json.dumps({"items": items, "options": options}, default=_plain).encode()
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return body, headers


class _Attempts:
    """Where each attempt of one request goes and how long to wait before the next one.

    Connection errors, timeouts and 5xx are retried with backoff, each retry on the next
    replica, ``RETRIES`` times. A 429 (the replica's queue is full) is retried after its
    ``Retry-After`` without using up an attempt, for up to ``BUSY_WAIT_MAX_S`` in all. Any
    other answer than 200 is an error at once."""

    def __init__(self, url: str) -> None:
        self.bases = [part.strip().rstrip("/") for part in url.split(",") if part.strip()]
        if not self.bases:
            raise RewardServiceError("no service URL (VERIFIER_URL or the url keyword)")
        self.first = random.randrange(len(self.bases))
        self.tries = 0
        self.retries = 0
        self.busy_since: float | None = None
        self.failure = ""

    def endpoint(self) -> str:
        endpoint = self.bases[(self.first + self.tries) % len(self.bases)] + "/score"
        self.tries += 1
        return endpoint

    def results(self, endpoint: str, body: bytes, count: int) -> list[dict[str, Any]]:
        try:
            results: list[dict[str, Any]] = json.loads(body)["results"]
        except (ValueError, KeyError, TypeError):
            message = f"{endpoint} answered 200 without results: {body[:1000]!r}"
            raise RewardServiceError(message) from None
        if len(results) != count:
            raise RewardServiceError(f"{endpoint}: {len(results)} results for {count} items")
        return results

    def answered(self, endpoint: str, code: int, body: bytes, retry_after: str | None) -> float:
        """Seconds to wait after an answer other than 200; raises when there is no retry."""
        self.failure = f"{endpoint} answered {code}: {body[:1000]!r}"
        told = _retry_after_s(retry_after)
        if code == BUSY:
            now = time.monotonic()
            self.busy_since = now if self.busy_since is None else self.busy_since
            if now - self.busy_since >= BUSY_WAIT_MAX_S:
                raise self._exhausted()
            return (told or BACKOFF_S) + random.uniform(0, BACKOFF_S)
        if code < 500:
            raise RewardServiceError(self.failure)
        return self._backoff(told)

    def failed(self, endpoint: str, error: BaseException) -> float:
        """Seconds to wait after no answer (refused, reset, DNS, timeout); raises when done."""
        detail = str(error) or "no answer within the timeout"
        self.failure = f"{endpoint}: {type(error).__name__}: {detail}"
        return self._backoff(None)

    def _backoff(self, told: float | None) -> float:
        if self.retries >= RETRIES:
            raise self._exhausted()
        backoff = min(BACKOFF_S * 2**self.retries, BACKOFF_MAX_S) if told is None else told
        self.retries += 1
        return backoff + random.uniform(0, BACKOFF_S)

    def _exhausted(self) -> RewardServiceError:
        return RewardServiceError(f"no answer after {self.tries} attempts; last: {self.failure}")


def _post_score(
    items: list[dict[str, Any]], options: dict[str, Any], connection: tuple[str, str | None, float]
) -> list[dict[str, Any]]:
    """``POST /score`` with the standard library, retried as :class:`_Attempts` says."""
    url, api_key, timeout_s = connection
    body, headers = _request(items, options, api_key)
    attempts = _Attempts(url)
    while True:
        endpoint = attempts.endpoint()
        try:
            code, answer, retry_after = _send(endpoint, body, headers, timeout_s)
        except (OSError, http.client.HTTPException) as error:
            time.sleep(attempts.failed(endpoint, error))
            continue
        if code == 200:
            return attempts.results(endpoint, answer, len(items))
        time.sleep(attempts.answered(endpoint, code, answer, retry_after))


def _send(
    endpoint: str, body: bytes, headers: dict[str, str], timeout_s: float
) -> tuple[int, bytes, str | None]:
    """One POST with urllib: the status, the body and ``Retry-After``."""
    request = urllib.request.Request(endpoint, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return int(response.status), response.read(), None
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("Retry-After")


# A call waiting in a batch: its item, and the future its result is set on.
_Call = tuple[dict[str, Any], "asyncio.Future[Any]"]


class _Batcher:
    """The calls of one event loop, sent together: one per settings (URL, key, timeout,
    batch size, linger, requests in flight).

    A call's item joins the pending items of its option set, which are sent as one request
    when they number ``batch_size``; ``linger_s`` after the first call arrived, whatever is
    pending is sent. At most ``max_in_flight`` requests are open at once; the others wait
    their turn. A failed request fails each of its calls with the reason."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        connection: tuple[str, str | None, float],
        batching: tuple[int, float, int],
    ) -> None:
        self.loop = loop
        self.connection = connection
        self.batch_size, self.linger_s, max_in_flight = batching
        self.slots = asyncio.Semaphore(max_in_flight)
        # Per option set (its JSON): the options, then each call's item and future.
        self.pending: dict[str, tuple[dict[str, Any], list[_Call]]] = {}
        self.timer: asyncio.TimerHandle | None = None
        self.sending: set[asyncio.Task[None]] = set()
        self.active = 0  # requests being sent or retried
        self.trouble = ""  # why the last attempt that failed did, until one succeeds
        self.session: Any = None  # aiohttp.ClientSession, opened on the first request
        self.aiohttp: Any = None

    def submit(self, item: dict[str, Any], options: dict[str, Any]) -> asyncio.Future[Any]:
        key = json.dumps(options, sort_keys=True, default=_plain)
        future: asyncio.Future[Any] = self.loop.create_future()
        calls = self.pending.setdefault(key, (options, []))[1]
        calls.append((item, future))
        if len(calls) >= self.batch_size:
            self._start(*self.pending.pop(key))
        if not self.pending and self.timer is not None:
            self.timer.cancel()
            self.timer = None
        elif self.pending and self.timer is None:
            self.timer = self.loop.call_later(self.linger_s, self.flush)
        return future

    def flush(self) -> None:
        """Send whatever is pending."""
        self.timer = None
        pending, self.pending = self.pending, {}
        for options, calls in pending.values():
            self._start(options, calls)

    def _start(self, options: dict[str, Any], calls: list[_Call]) -> None:
        items = [item for item, _ in calls]
        futures = [future for _, future in calls]
        task = self.loop.create_task(self._send(items, options, futures))
        self.sending.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self.sending.discard)

    async def _send(
        self,
        items: list[dict[str, Any]],
        options: dict[str, Any],
        futures: list[asyncio.Future[Any]],
    ) -> None:
        try:
            async with self.slots:
                self.active += 1
                try:
                    results = await self._post(items, options)
                finally:
                    self.active -= 1
            await self._close_when_idle()
        except asyncio.CancelledError:
            for future in futures:
                future.cancel()
            raise
        except (Exception, RewardError) as error:  # a RewardError is not an Exception
            kind = type(error) if isinstance(error, RewardError) else RewardError
            message = str(error) if isinstance(error, RewardError) else repr(error)
            _LOG.error("reward-verifier: a request of %d items failed: %s", len(items), message)
            for future in futures:
                if not future.done():
                    future.set_exception(kind(message))  # one each: tracebacks stay apart
            await self._close_when_idle()
            return
        for index, future in enumerate(futures):
            if not future.done():  # a call cancelled while its request ran
                future.set_result(results[index])

    async def _post(
        self, items: list[dict[str, Any]], options: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """``POST /score``, retried as :class:`_Attempts` says, over the pooled client."""
        url, api_key, timeout_s = self.connection
        body, headers = _request(items, options, api_key)
        attempts = _Attempts(url)
        while True:
            endpoint = attempts.endpoint()
            try:
                code, answer, retry_after = await self._transport(
                    endpoint, body, headers, timeout_s
                )
            except Exception as error:  # aiohttp's errors, OSError, the timeout
                wait = attempts.failed(endpoint, error)
            else:
                if code == 200:
                    self.trouble = ""
                    return attempts.results(endpoint, answer, len(items))
                wait = attempts.answered(endpoint, code, answer, retry_after)
            self.trouble = attempts.failure
            await asyncio.sleep(wait)

    async def _transport(
        self, endpoint: str, body: bytes, headers: dict[str, str], timeout_s: float
    ) -> tuple[int, bytes, str | None]:
        if self.aiohttp is None:
            try:
                import aiohttp
            except ImportError:
                self.aiohttp = False
            else:
                self.aiohttp = aiohttp
        if self.aiohttp is False:  # no aiohttp here: urllib in a thread
            return await self.loop.run_in_executor(None, _send, endpoint, body, headers, timeout_s)
        if self.session is None or self.session.closed:
            # No limit of its own: the slots bound the requests in flight.
            self.session = self.aiohttp.ClientSession(connector=self.aiohttp.TCPConnector(limit=0))
        timeout = self.aiohttp.ClientTimeout(total=timeout_s)
        async with self.session.post(endpoint, data=body, headers=headers, timeout=timeout) as r:
            return int(r.status), await r.read(), r.headers.get("Retry-After")

    async def _close_when_idle(self) -> None:
        """Close the client once no request is open or waiting: one client serves a step's
        requests, and none is left open between steps or when the process ends."""
        if self.active == 0 and not self.pending and self.session is not None:
            session, self.session = self.session, None  # the next request opens a new one
            await session.close()

    async def close(self) -> None:
        if self.session is not None:
            session, self.session = self.session, None
            await session.close()


# Each event loop's batchers, by settings. An event loop's futures and client belong to it.
_BATCHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[Any, ...], _Batcher]] = (
    weakref.WeakKeyDictionary()
)
_BATCHERS_LOCK = threading.Lock()


def _batcher(
    connection: tuple[str, str | None, float], batching: tuple[int, float, int]
) -> _Batcher:
    loop = asyncio.get_running_loop()
    with _BATCHERS_LOCK:
        batchers = _BATCHERS.setdefault(loop, {})
        key = (*connection, *batching)
        if key not in batchers:
            batchers[key] = _Batcher(loop, connection, batching)
        return batchers[key]


async def close_clients() -> None:
    """Close the running event loop's HTTP clients (``compute_score_async`` opens them again
    when it is called next). verl never calls this; a process that owns its loop may."""
    with _BATCHERS_LOCK:
        batchers = list(_BATCHERS.get(asyncio.get_running_loop(), {}).values())
    for batcher in batchers:
        await batcher.close()


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
