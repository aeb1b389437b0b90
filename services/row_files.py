"""Rows in and out of files, by the file's suffix: JSON Lines (streamed), CSV and Parquet
(through pandas and pyarrow, where they are installed)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

# A row, or why a line is not one (a JSONL line that is not a JSON object).
Row = dict[str, Any] | str

TABLE_SUFFIXES = (".csv", ".parquet", ".pq")


class MissingTableLibrary(RuntimeError):
    """CSV or Parquet was asked for and pandas (or pyarrow) is not installed."""


def _pandas(path: Path) -> Any:
    try:
        pandas = importlib.import_module("pandas")  # untyped: no stubs are installed
    except ImportError as exc:
        raise MissingTableLibrary(
            f"{path.name}: reading and writing {path.suffix} files needs pandas "
            "(pip install pandas pyarrow); JSON Lines (.jsonl) needs nothing"
        ) from exc
    if path.suffix.lower() != ".csv":
        try:
            importlib.import_module("pyarrow")
        except ImportError as exc:
            raise MissingTableLibrary(
                f"{path.name}: Parquet needs pyarrow (pip install pyarrow)"
            ) from exc
    return pandas


def is_table(path: Path) -> bool:
    return path.suffix.lower() in TABLE_SUFFIXES


def open_rows(path: Path) -> tuple[int, Iterator[Row]]:
    """How many rows ``path`` holds, and the rows: a JSONL file's lazily (blank lines
    skipped; a line that is not a JSON object yields the reason), a CSV file's as text
    exactly as written (an empty cell is an empty string), a Parquet file's with its
    columns' types (a table is read once, whole)."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        frame = _pandas(path).read_csv(path, dtype=str, keep_default_na=False)
    elif suffix in (".parquet", ".pq"):
        frame = _pandas(path).read_parquet(path)
    else:
        with path.open("rb") as handle:
            count = sum(1 for line in handle if line.strip())
        return count, _jsonl_rows(path)
    records: list[Row] = frame.to_dict(orient="records")
    return len(records), iter(records)


def _jsonl_rows(path: Path) -> Iterator[Row]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                yield f"line {number} is not valid JSON: {exc.msg}"
                continue
            yield row if isinstance(row, dict) else f"line {number} is not a JSON object"


class RowWriter:
    """Writes rows to ``path``: JSONL line by line, with ``nested`` as one object under its
    key; CSV and Parquet once closed, with ``nested``'s fields as columns ``<key>_<field>``."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        self.key = key
        self._table = is_table(path)
        self._pandas = _pandas(path) if self._table else None
        self._rows: list[dict[str, Any]] = []
        self._sink: IO[str] | None = None if self._table else path.open("w", encoding="utf-8")

    def write(self, row: dict[str, Any], nested: dict[str, Any]) -> None:
        if self._sink is not None:
            record = {**row, self.key: nested}
            self._sink.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            self._rows.append({**row, **{f"{self.key}_{k}": v for k, v in nested.items()}})

    def close(self) -> None:
        if self._sink is not None:
            self._sink.close()
            self._sink = None
            return
        if self._pandas is None:
            return
        frame = self._pandas.DataFrame(self._rows)
        if self.path.suffix.lower() == ".csv":
            frame.to_csv(self.path, index=False)
        else:
            frame.to_parquet(self.path, index=False)
        self._pandas = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
