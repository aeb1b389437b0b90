"""Grading in this process, without a server: :class:`LocalGrader` and :func:`grade_local`.

The grader builds the service's own backends (the math workers, the LLM verifier when
``VERIFIER_LLM_URL`` is set, the code sandbox when asked for) and sends each answer through
the same function ``POST /grade`` calls, so its verdicts are the service's. Settings come
from the same ``VERIFIER_*`` environment variables as the server's.

Nothing heavy is imported with this module: the backends start on the first call (or
:meth:`LocalGrader.start`), on an event loop of their own in a background thread, so the
blocking methods work in a notebook (whose own loop is running) and the async ones from any
loop.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import Future
from contextlib import AsyncExitStack
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from pydantic import BaseModel

from services.contract.client.http import Options, Reference, grade_body, wire_item, wire_options
from services.contract.protocol import (
    ExtractionPolicy,
    GradeRequest,
    GradeResponse,
    Mode,
    RewardOptions,
    ScoreResult,
    VerdictSource,
)

if TYPE_CHECKING:
    from services.scoring import Scorer
    from services.tasks.policy import ServerDefaults

T = TypeVar("T")
# What a call asks of the started backends: the scorer, and the defaults its options take.
Work = Callable[["Scorer", "ServerDefaults"], Coroutine[Any, Any, T]]


class LocalGrader:
    """The service's judges in this process.

    ``workers``: math worker processes (default: ``VERIFIER_MATH_WORKERS``, else one per
    core); ``code``: start the bubblewrap sandbox too, for code items (where it cannot
    run, code items say why, as the service's do); ``answer_after_reasoning``: the
    reasoning rule (search only after a closed ``<think>`` block; default
    ``VERIFIER_ANSWER_AFTER_REASONING``, on); ``warm_parser``: before the first verdict,
    warm the LaTeX parser and the symbolic engine on the server's warm-up set, as the
    service does (about 12 s more at start, the first few hundred answers faster; by default
    they warm up on the answers graded); ``settings``: any other service setting by its
    field name (``math_timeout_s``, ...)."""

    def __init__(
        self,
        *,
        workers: int | None = None,
        code: bool = False,
        answer_after_reasoning: bool | None = None,
        warm_parser: bool = False,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        self._overrides: dict[str, Any] = dict(settings or {})
        if workers is not None:
            self._overrides["math_workers"] = workers
        if answer_after_reasoning is not None:
            self._overrides["answer_after_reasoning"] = answer_after_reasoning
        self.code = code
        self.warm_parser = warm_parser
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stack: AsyncExitStack | None = None
        self._scorer: Scorer | None = None
        self._defaults: ServerDefaults | None = None

    # -- life cycle ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the backends now (the first grading call does it otherwise): the math
        workers import the parser and the symbolic engine, a few seconds."""
        with self._lock:
            if self._scorer is not None:
                return
            if not self.warm_parser:
                _start_workers_cold()
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="local-grader", daemon=True)
            thread.start()
            try:
                self._stack, self._scorer, self._defaults = asyncio.run_coroutine_threadsafe(
                    self._build(), loop
                ).result()
            except BaseException:
                loop.call_soon_threadsafe(loop.stop)
                thread.join()
                loop.close()
                raise
            self._loop, self._thread = loop, thread
            atexit.register(self.close)  # the worker processes must not outlive the program

    async def _build(self) -> tuple[AsyncExitStack, Scorer, ServerDefaults]:
        from services.composition import build_backends
        from services.metrics import Metrics
        from services.settings import Settings

        stack = AsyncExitStack()
        settings = Settings(**self._overrides)
        backends = await stack.enter_async_context(
            build_backends(settings, Metrics(), code=self.code)
        )
        return stack, backends.scorer, settings.defaults

    def close(self) -> None:
        """Stop the workers (and the sandbox); a later call starts them again."""
        with self._lock:
            loop, thread, stack = self._loop, self._thread, self._stack
            self._loop = self._thread = self._stack = self._scorer = self._defaults = None
        if loop is None or thread is None or stack is None:
            return
        atexit.unregister(self.close)
        try:
            asyncio.run_coroutine_threadsafe(stack.aclose(), loop).result()
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.close)

    def _submit(self, work: Work[T]) -> Future[T]:
        self.start()
        loop, scorer, defaults = self._loop, self._scorer, self._defaults
        assert loop is not None and scorer is not None and defaults is not None
        return asyncio.run_coroutine_threadsafe(work(scorer, defaults), loop)

    def _run(self, work: Work[T]) -> T:
        return self._submit(work).result()

    async def _run_async(self, work: Work[T]) -> T:
        if self._scorer is None:
            await asyncio.to_thread(self.start)  # seconds of start-up, off the caller's loop
        return await asyncio.wrap_future(self._submit(work))

    # -- grading -------------------------------------------------------------------------

    def grade(
        self,
        answer: str,
        reference: Reference,
        *,
        question: str = "",
        extraction: ExtractionPolicy | str | None = None,
        mode: Mode | str | None = None,
        verdict_source: VerdictSource | str | None = None,
        verifier_weight: float = 1.0,
    ) -> GradeResponse:
        """The verdict ``POST /grade`` gives on one math answer (``extraction``: lenient
        when omitted; a number as ``reference`` is read exactly)."""
        request = _grade_request(
            answer, reference, question, extraction, mode, verdict_source, verifier_weight
        )
        return self.grade_requests([request])[0]

    async def grade_async(
        self,
        answer: str,
        reference: Reference,
        *,
        question: str = "",
        extraction: ExtractionPolicy | str | None = None,
        mode: Mode | str | None = None,
        verdict_source: VerdictSource | str | None = None,
        verifier_weight: float = 1.0,
    ) -> GradeResponse:
        """:meth:`grade` for async code (any event loop)."""
        request = _grade_request(
            answer, reference, question, extraction, mode, verdict_source, verifier_weight
        )
        return (await self._run_async(_grading([request])))[0]

    def grade_many(
        self,
        answers: Sequence[str],
        references: Sequence[Reference],
        *,
        questions: Sequence[str] | None = None,
        extraction: ExtractionPolicy | str | None = None,
        mode: Mode | str | None = None,
        verdict_source: VerdictSource | str | None = None,
        verifier_weight: float = 1.0,
    ) -> list[GradeResponse]:
        """:meth:`grade` of each answer against its reference, judged in parallel on the
        workers; one verdict per answer, in order."""
        if len(answers) != len(references) or (
            questions is not None and len(questions) != len(answers)
        ):
            raise ValueError("answers, references (and questions) must have the same length")
        asked = questions if questions is not None else [""] * len(answers)
        requests = [
            _grade_request(answer, reference, q, extraction, mode, verdict_source, verifier_weight)
            for answer, reference, q in zip(answers, references, asked, strict=True)
        ]
        return self.grade_requests(requests)

    def grade_requests(self, requests: Sequence[GradeRequest]) -> list[GradeResponse]:
        """The verdict of each ``/grade`` body, in parallel, in order."""
        return self._run(_grading(requests)) if requests else []

    async def grade_requests_async(self, requests: Sequence[GradeRequest]) -> list[GradeResponse]:
        """:meth:`grade_requests` for async code."""
        return await self._run_async(_grading(requests)) if requests else []

    def score(
        self, items: Sequence[BaseModel | Mapping[str, Any]], options: Options = None
    ) -> list[ScoreResult]:
        """What ``POST /score`` answers for these items (math, and code with ``code=True``),
        in order."""
        return self._run(_scoring(items, options))

    async def score_async(
        self, items: Sequence[BaseModel | Mapping[str, Any]], options: Options = None
    ) -> list[ScoreResult]:
        """:meth:`score` for async code."""
        return await self._run_async(_scoring(items, options))

    def run_tests(
        self,
        program: str,
        tests: Any,
        *,
        language: str = "python",
        timeout_s: float | None = None,
        options: Options = None,
    ) -> ScoreResult:
        """Run ``program`` (plain source, or a completion with a fenced code block)
        against ``tests`` in the sandbox (needs ``code=True``), as a ``/score`` code item.
        ``tests``: a list of ``{code?, stdin?, expected?}``, or any dataset test format the
        service takes. The result's components hold ``tests_passed`` and
        ``pass_fraction``."""
        if "```" not in program:  # plain source: the judge takes the completion's code block
            program = f"```{language}\n{program.rstrip()}\n```"
        item: dict[str, Any] = {
            "task": "code",
            "language": language,
            "completion": program,
            "tests": tests,
        }
        if timeout_s is not None:
            item["timeout_s"] = timeout_s
        return self.score([item], options)[0]


# What the math workers' fork server imports before forking them, less the warm-up set
# (services.mathcheck.preload), which the service runs so its first requests are fast.
_COLD_PRELOAD = ["sympy", "math_verify", "services.tasks.math.judge"]


def _start_workers_cold() -> None:
    """Start this process's fork server (which forks the math workers) without the parser's
    warm-up, unless one runs already: a fork server keeps the preload it started with."""
    from multiprocessing import forkserver, get_context

    get_context("forkserver").set_forkserver_preload(_COLD_PRELOAD)
    forkserver.ensure_running()


def _grade_request(
    answer: str,
    reference: Reference,
    question: str,
    extraction: ExtractionPolicy | str | None,
    mode: Mode | str | None,
    verdict_source: VerdictSource | str | None,
    verifier_weight: float,
) -> GradeRequest:
    body = grade_body(
        answer,
        reference,
        question=question,
        extraction=extraction,
        mode=mode,
        verdict_source=verdict_source,
        verifier_weight=verifier_weight,
    )
    return GradeRequest.model_validate(body)


def _grading(
    requests: Sequence[GradeRequest],
) -> Work[list[GradeResponse]]:
    async def work(scorer: Scorer, defaults: ServerDefaults) -> list[GradeResponse]:
        from services.api import adapters

        return list(await asyncio.gather(*(adapters.grade(scorer, r, defaults) for r in requests)))

    return work


def _scoring(
    items: Sequence[BaseModel | Mapping[str, Any]], options: Options
) -> Work[list[ScoreResult]]:
    raw = [wire_item(item) for item in items]
    parsed = RewardOptions.model_validate(wire_options(options))

    async def work(scorer: Scorer, defaults: ServerDefaults) -> list[ScoreResult]:
        from services.api.results import score_batch

        return (await score_batch(scorer, raw, parsed.to_policy(defaults))).results

    return work


_shared: LocalGrader | None = None
_shared_lock = threading.Lock()


def grade_local(
    answer: str,
    reference: Reference,
    *,
    question: str = "",
    extraction: ExtractionPolicy | str | None = None,
    mode: Mode | str | None = None,
    verdict_source: VerdictSource | str | None = None,
    verifier_weight: float = 1.0,
) -> GradeResponse:
    """:meth:`LocalGrader.grade` on a grader shared by the process, started on first use
    (a few seconds) and stopped at exit."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = LocalGrader()
        grader = _shared
    return grader.grade(
        answer,
        reference,
        question=question,
        extraction=extraction,
        mode=mode,
        verdict_source=verdict_source,
        verifier_weight=verifier_weight,
    )
