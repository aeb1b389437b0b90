"""The ``verifier`` command: serve the API, or grade a JSONL file."""

from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from services.protocol import RewardOptions, Task

if TYPE_CHECKING:
    from services.scoring import Scorer

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


def _rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line number, parsed row or the JSON error) for each non-blank line, lazily."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                yield number, f"line {number} is not valid JSON: {exc.msg}"
                continue
            yield number, row if isinstance(row, dict) else f"line {number} is not an object"


def _count_lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


@app.command()
def grade(
    input_path: Annotated[Path, typer.Argument(help="JSONL file, one item per line.", exists=True)],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write results.")],
    answer_field: Annotated[str, typer.Option(help="Field with the model output.")] = "completion",
    reference_field: Annotated[
        str, typer.Option(help="Field with the ground truth.")
    ] = "reference",
    id_field: Annotated[str, typer.Option(help="Field echoed as the item id.")] = "id",
    batch_size: Annotated[int, typer.Option(help="Items per scoring batch.", min=1)] = 256,
    url: Annotated[
        str | None, typer.Option(help="Grade through a running service instead of in-process.")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(envvar="VERIFIER_API_KEY", help="Bearer key for --url.")
    ] = None,
    retries: Annotated[
        int, typer.Option(help="--url: retries of a batch after a connection error or 5xx.", min=0)
    ] = 5,
) -> None:
    """Grade every line of a JSONL file and write one JSON result per line.

    Streams the file in batches, so memory stays flat however long it is. Each output line
    is the input row with a "grade" object added (reward, correct, status, extracted,
    detail). Prints accuracy and status counts at the end.
    """
    fields = (answer_field, reference_field, id_field)
    counts = asyncio.run(_grade_file(input_path, output, fields, batch_size, url, api_key, retries))
    judged = counts["correct"] + counts["wrong"]
    accuracy = counts["correct"] / judged if judged else 0.0
    console.print(
        f"graded {counts['total']} lines: accuracy {accuracy:.2%} "
        f"({counts['correct']}/{judged} judged)"
    )
    statuses = ", ".join(
        f"{name[7:]}={n}" for name, n in sorted(counts.items()) if name.startswith("status:")
    )
    console.print(f"status: {statuses}")
    console.print(f"results written to {output}")


async def _grade_file(
    input_path: Path,
    output: Path,
    fields: tuple[str, str, str],
    batch_size: int,
    url: str | None,
    api_key: str | None,
    retries: int,
) -> Counter[str]:
    score = await _scoring_function(url, api_key, retries)
    counts: Counter[str] = Counter()
    total = _count_lines(input_path)
    columns = (
        TextColumn("grading"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console) as progress, output.open("w") as sink:
        bar = progress.add_task("grade", total=total)
        batch: list[tuple[dict[str, Any], dict[str, Any] | str]] = []

        async def flush() -> None:
            valid = [raw for _, raw in batch if isinstance(raw, dict)]
            results = iter(await score(valid, RewardOptions()) if valid else [])
            for row, raw in batch:
                result = (
                    next(results)
                    if isinstance(raw, dict)
                    else {
                        "reward": None,
                        "status": "error",
                        "extracted": None,
                        "detail": raw,
                        "components": {},
                    }
                )
                _write(sink, row, result, counts)
            progress.advance(bar, len(batch))
            batch.clear()

        for _, parsed in _rows(input_path):
            if isinstance(parsed, str):
                batch.append(({}, parsed))
            else:
                answer_field, reference_field, id_field = fields
                raw = {
                    "id": parsed.get(id_field),
                    "completion": parsed.get(answer_field),
                    "reference": parsed.get(reference_field),
                }
                batch.append((parsed, raw))
            if len(batch) >= batch_size:
                await flush()
        if batch:
            await flush()
    await score.aclose()
    return counts


def _write(sink: Any, row: dict[str, Any], result: dict[str, Any], counts: Counter[str]) -> None:
    components = result.get("components") or {}
    correct = None
    if result["status"] in ("ok", "unavailable") and "correct" in components:
        correct = bool(components["correct"])
    grade_info = {
        "reward": result["reward"],
        "correct": correct,
        "status": result["status"],
        "extracted": result.get("extracted"),
        "detail": result.get("detail", ""),
    }
    sink.write(json.dumps({**row, "grade": grade_info}, ensure_ascii=False) + "\n")
    counts["total"] += 1
    counts[f"status:{result['status']}"] += 1
    if correct is not None:
        counts["correct" if correct else "wrong"] += 1


class _Scoring(Protocol):
    """Scores a list of raw math items, in-process or through a service."""

    async def __call__(self, items: list[dict[str, Any]], options: Any) -> list[dict[str, Any]]: ...

    async def aclose(self) -> None: ...


class _LocalScoring:
    """The service's own backends, built in this process (math only: no sandbox)."""

    def __init__(self, backends: AsyncExitStack, scorer: Scorer) -> None:
        self._backends = backends
        self._scorer = scorer

    @classmethod
    async def start(cls) -> _LocalScoring:
        from services.composition import build_backends
        from services.metrics import Metrics
        from services.settings import Settings

        stack = AsyncExitStack()
        backends = await stack.enter_async_context(
            build_backends(Settings(), Metrics(), code=False)
        )
        return cls(stack, backends.scorer)

    async def __call__(self, items: list[dict[str, Any]], options: Any) -> list[dict[str, Any]]:
        response = await self._scorer.score_batch(items, options, only=Task.MATH)
        return [result.model_dump(mode="json") for result in response.results]

    async def aclose(self) -> None:
        await self._backends.aclose()


class _RemoteScoring:
    def __init__(self, url: str, api_key: str | None, retries: int) -> None:
        import httpx

        from services.http_policy import HttpPolicy

        # A client of the service's policy, with room for a whole grading batch (256 items
        # by default, LLM verifier included) in one request.
        self._policy = HttpPolicy(timeout_s=600.0, retries=retries)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.AsyncClient(
            base_url=url.rstrip("/"), headers=headers, timeout=self._policy.timeout()
        )

    async def __call__(self, items: list[dict[str, Any]], options: Any) -> list[dict[str, Any]]:
        import httpx

        from services.http_policy import TRANSIENT_ERRORS, RetryableStatus, is_retryable_status

        body = {"items": items, "options": options.model_dump()}

        async def attempt(_: int) -> httpx.Response:
            response = await self._client.post("/score/math", json=body)
            if is_retryable_status(response.status_code):
                raise RetryableStatus(response)
            return response

        try:
            response = await self._policy.call(attempt, before_retry=_report_retry)
        except TRANSIENT_ERRORS as exc:
            attempts = self._policy.attempts
            raise typer.BadParameter(f"service failed {attempts} attempts: {exc}") from exc
        if response.status_code != 200:
            raise typer.BadParameter(f"service answered {response.status_code}: {response.text}")
        results: list[dict[str, Any]] = response.json()["results"]
        return results

    async def aclose(self) -> None:
        await self._client.aclose()


def _report_retry(attempt: int, error: BaseException, delay: float) -> None:
    message = f"service attempt {attempt} failed ({error}); retrying in {delay:.1f}s"
    console.print(message, style="yellow", markup=False, highlight=False)


async def _scoring_function(url: str | None, api_key: str | None, retries: int) -> _Scoring:
    return _RemoteScoring(url, api_key, retries) if url else await _LocalScoring.start()


if __name__ == "__main__":
    app()
