"""The ``verifier`` command: serve the API, or grade a file of answers."""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from services.contract.protocol import (
    ExtractionPolicy,
    GradeRequest,
    GradeResponse,
    Judge,
    Mode,
    Status,
    VerdictSource,
)
from services.row_files import MissingTableLibrary, Row, RowWriter, open_rows

if TYPE_CHECKING:
    from services.contract.client import AsyncClient, LocalGrader

app = typer.Typer(add_completion=False, help="Reward verification service.", no_args_is_help=True)
console = Console(stderr=True)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    workers: Annotated[int, typer.Option(help="HTTP worker processes.")] = 1,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Start the HTTP service (settings come from VERIFIER_* environment variables)."""
    import uvicorn

    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}"
    console.print(f"[bold]reward-verifier[/] on {url}  (API docs: {url}/docs)")
    auth = (
        " -H 'Authorization: Bearer $VERIFIER_API_KEY'"
        if os.environ.get("VERIFIER_API_KEY")
        else ""
    )
    console.print(
        "Try:\n  curl -s " + url + "/score/math" + auth + " -H 'Content-Type: application/json' "
        '-d \'{"items": [{"completion": "So the answer is \\\\boxed{\\\\frac{1}{2}}", '
        '"reference": "0.5"}]}\'',
        markup=False,
        soft_wrap=True,
    )
    uvicorn.run(
        "services.app:create_app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
    )


GradeBatch = Callable[[Sequence[GradeRequest]], Awaitable[list[GradeResponse]]]

# Answers in flight at once through --url (each is one /grade request).
_CONCURRENT_REQUESTS = 32


@app.command()
def grade(
    input_path: Annotated[
        Path,
        typer.Argument(
            help="Answers to grade: JSON Lines (.jsonl), CSV (.csv) or Parquet (.parquet).",
            exists=True,
            dir_okay=False,
        ),
    ],
    output: Annotated[
        Path,
        typer.Option(
            "-o", "--output", help="Where to write the results: .jsonl, .csv or .parquet."
        ),
    ],
    answer_field: Annotated[str, typer.Option(help="Field with the model output.")] = "completion",
    reference_field: Annotated[
        str, typer.Option(help="Field with the ground truth (text or a number).")
    ] = "reference",
    question_field: Annotated[
        str, typer.Option(help="Field with the question, if any (the LLM verifier reads it).")
    ] = "question",
    extraction: Annotated[
        ExtractionPolicy,
        typer.Option(help="Where the final answer may come from; as /grade, lenient."),
    ] = ExtractionPolicy.LENIENT,
    answer_after_reasoning: Annotated[
        bool | None,
        typer.Option(
            "--answer-after-reasoning/--answer-anywhere",
            help="Search only after a closed <think> block, or anywhere. Default: the "
            "service's setting (VERIFIER_ANSWER_AFTER_REASONING, on). In-process only.",
            show_default=False,
        ),
    ] = None,
    mode: Annotated[
        Mode | None, typer.Option(help="Judge mode; default: the service's (rule).")
    ] = None,
    verdict_source: Annotated[
        VerdictSource | None,
        typer.Option(help="How the LLM verifier judges; default: the service's."),
    ] = None,
    verifier_weight: Annotated[
        float, typer.Option(help="Weight of the LLM verifier in addon/mixed modes.", min=0, max=1)
    ] = 1.0,
    workers: Annotated[
        int | None,
        typer.Option(help="In-process: math worker processes (default: one per core).", min=1),
    ] = None,
    batch_size: Annotated[int, typer.Option(help="Lines read and graded at a time.", min=1)] = 256,
    url: Annotated[
        str | None, typer.Option(help="Grade through a running service instead of in-process.")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(envvar="VERIFIER_API_KEY", help="Bearer key for --url.")
    ] = None,
    retries: Annotated[
        int, typer.Option(help="--url: retries after a connection error, timeout or 5xx.", min=0)
    ] = 5,
    id_field: Annotated[
        str | None, typer.Option(hidden=True, help="Ignored: every input field is kept.")
    ] = None,
) -> None:
    """Grade every row of a file as POST /grade would, and write each row with its verdict.

    Same defaults and options as /grade and services.contract.client.LocalGrader (lenient
    extraction, the service's reasoning rule). JSON Lines output: each input row with a
    "grade" object (correct, status, method, probability, extracted_answer,
    extracted_reference, explanation); CSV or Parquet output: those as grade_* columns.
    A row that cannot be graded (no answer field, no reference, not JSON) gets status
    "error" and the reason. Prints accuracy and status counts at the end.
    """
    if url is not None and answer_after_reasoning is not None:
        raise typer.BadParameter(
            "the service's VERIFIER_ANSWER_AFTER_REASONING decides with --url; "
            "drop --answer-after-reasoning/--answer-anywhere or grade in-process",
            param_hint="--answer-after-reasoning",
        )
    options = {
        "extraction": extraction,
        "mode": mode,
        "verdict_source": verdict_source,
        "verifier_weight": verifier_weight,
    }
    fields = (answer_field, reference_field, question_field)
    _show_client_retries()
    try:
        counts = asyncio.run(
            _grade_file(
                input_path,
                output,
                fields,
                options,
                batch_size,
                _Backend(url, api_key, retries, workers, answer_after_reasoning),
            )
        )
    except MissingTableLibrary as exc:
        raise typer.BadParameter(str(exc)) from exc
    except _ServiceFailed as exc:
        console.print(f"[red]{exc}[/]", highlight=False)
        raise typer.Exit(1) from exc
    decided = counts["correct"] + counts["wrong"]
    accuracy = counts["correct"] / decided if decided else 0.0
    console.print(
        f"graded {counts['total']} lines: accuracy {accuracy:.2%} "
        f"({counts['correct']}/{decided} judged)"
    )
    statuses = ", ".join(
        f"{name[7:]}={n}" for name, n in sorted(counts.items()) if name.startswith("status:")
    )
    console.print(f"status: {statuses}")
    console.print(f"results written to {output}")


class _ServiceFailed(Exception):
    """The service could not be reached, or refused a request."""


class _Backend:
    """Where answers are graded: a :class:`LocalGrader` here, or a service's ``/grade``."""

    def __init__(
        self,
        url: str | None,
        api_key: str | None,
        retries: int,
        workers: int | None,
        answer_after_reasoning: bool | None,
    ) -> None:
        self.url = url
        self.api_key = api_key
        self.retries = retries
        self.workers = workers
        self.answer_after_reasoning = answer_after_reasoning
        self._local: LocalGrader | None = None
        self._client: AsyncClient | None = None

    async def start(self) -> GradeBatch:
        from services.contract.client import AsyncClient, LocalGrader, RewardServiceError

        if self.url is None:
            local = LocalGrader(
                workers=self.workers, answer_after_reasoning=self.answer_after_reasoning
            )
            self._local = local
            await asyncio.to_thread(local.start)
            return local.grade_requests_async
        # Room for a batch's answers and the LLM verifier behind them in each request.
        client = AsyncClient(self.url, api_key=self.api_key, retries=self.retries, timeout_s=600.0)
        self._client = client
        try:
            await client.health()
        except RewardServiceError as exc:
            raise _ServiceFailed(str(exc)) from exc
        slots = asyncio.Semaphore(_CONCURRENT_REQUESTS)

        async def one(request: GradeRequest) -> GradeResponse:
            async with slots:
                return await client.grade(
                    request.answer,
                    request.reference,
                    question=request.question,
                    extraction=request.extraction,
                    mode=request.mode,
                    verdict_source=request.verdict_source,
                    verifier_weight=request.verifier_weight,
                )

        async def batch(requests: Sequence[GradeRequest]) -> list[GradeResponse]:
            try:
                return list(await asyncio.gather(*map(one, requests)))
            except RewardServiceError as exc:
                raise _ServiceFailed(str(exc)) from exc

        return batch

    async def close(self) -> None:
        if self._local is not None:
            await asyncio.to_thread(self._local.close)
        if self._client is not None:
            await self._client.aclose()


def _request(
    row: dict[str, Any], fields: tuple[str, str, str], options: dict[str, Any]
) -> GradeRequest | str:
    """The /grade body of a row, or why there is none."""
    answer_field, reference_field, question_field = fields
    if answer_field not in row or row[answer_field] is None:
        return f"the answer field {answer_field!r} is missing"
    if reference_field not in row:
        return f"the reference field {reference_field!r} is missing"
    question = row.get(question_field)
    body = {
        "answer": _text(row[answer_field]),
        "reference": row[reference_field],
        "question": "" if question is None else _text(question),
        **options,
    }
    try:
        return GradeRequest.model_validate(body)
    except ValidationError as exc:
        return "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'row'}: {e['msg']}"
            for e in exc.errors(include_url=False)
        )


def _text(value: Any) -> Any:
    """A number as its exact text (``4``, ``0.1``), as /grade reads a numeric reference."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value) if isinstance(value, int) else repr(value)
    return value


def _unjudged(reason: str) -> GradeResponse:
    return GradeResponse(
        correct=None,
        status=Status.ERROR,
        method=Judge.NONE,
        extracted_answer=None,
        extracted_reference=None,
        explanation=reason,
    )


async def _grade_file(
    input_path: Path,
    output: Path,
    fields: tuple[str, str, str],
    options: dict[str, Any],
    batch_size: int,
    backend: _Backend,
) -> Counter[str]:
    total, rows = await asyncio.to_thread(open_rows, input_path)
    counts: Counter[str] = Counter()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    try:
        with RowWriter(output, "grade") as sink:
            console.print(
                "starting the graders..."
                if backend.url is None
                else f"grading through {backend.url}"
            )
            grade_batch = await backend.start()
            with Progress(*columns, console=console) as progress:
                bar = progress.add_task("grading", total=total)
                while batch := await asyncio.to_thread(_next_batch, rows, batch_size):
                    graded = await _grade_batch(batch, fields, options, grade_batch)
                    for row, verdict in zip(batch, graded, strict=True):
                        _write(sink, row, verdict, counts)
                    decided = counts["correct"] + counts["wrong"]
                    if decided:
                        accuracy = counts["correct"] / decided
                        progress.update(bar, description=f"grading (accuracy {accuracy:.1%})")
                    progress.advance(bar, len(batch))
    finally:
        await backend.close()
    return counts


def _next_batch(rows: Iterator[Row], size: int) -> list[Row]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            break
    return batch


async def _grade_batch(
    batch: list[Row],
    fields: tuple[str, str, str],
    options: dict[str, Any],
    grade_batch: GradeBatch,
) -> list[GradeResponse]:
    requests = [_request(row, fields, options) if isinstance(row, dict) else row for row in batch]
    valid = [request for request in requests if isinstance(request, GradeRequest)]
    verdicts = iter(await grade_batch(valid) if valid else [])
    return [
        next(verdicts) if isinstance(request, GradeRequest) else _unjudged(request)
        for request in requests
    ]


def _write(sink: RowWriter, row: Row, verdict: GradeResponse, counts: Counter[str]) -> None:
    sink.write(row if isinstance(row, dict) else {}, verdict.model_dump(mode="json"))
    counts["total"] += 1
    counts[f"status:{verdict.status.value}"] += 1
    if verdict.correct is not None:
        counts["correct" if verdict.correct else "wrong"] += 1


class _ConsoleHandler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        console.print(record.getMessage(), style="yellow", markup=False, highlight=False)


def _show_client_retries() -> None:
    """The client's retries ("service attempt 1 failed (...); retrying in 0.5s") on stderr."""
    logger = logging.getLogger("services.contract.client.http")
    if not any(isinstance(handler, _ConsoleHandler) for handler in logger.handlers):
        logger.addHandler(_ConsoleHandler(level=logging.WARNING))
        logger.propagate = False


if __name__ == "__main__":
    app()
