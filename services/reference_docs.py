"""Settings references as Markdown tables, kept between markers in a docs page.

One writer for both trees: the service's environment variables
(:mod:`services.settings_reference`, docs/configuration.md) and the trainer's YAML keys
(:mod:`trainer.config_reference`, docs/trainer.md). Each tree says what its rows are; this
module renders them and rewrites the text between a page's markers, so a test can compare
the page with what the code would write.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined, to_jsonable_python

# A field whose default is computed where it runs (a CPU count, a path) says what to show
# instead: ``json_schema_extra={SHOWN_DEFAULT: "CPU count"}``.
SHOWN_DEFAULT = "shown_default"
# A settings section's field that holds a policy dataclass names the policy's fields that
# are the section's own variables (or YAML keys): ``json_schema_extra={SECTION_VARIABLES:
# [...]}`` (the verifier's HTTP policy: VERIFIER_LLM_TIMEOUT_S, ...; the trainer's
# service.timeout_s, ...). See :func:`section_parts`.
SECTION_VARIABLES = "section_variables"


@dataclass(frozen=True, slots=True)
class Row:
    """One setting: the name a user writes, its default value and its field."""

    key: str
    default: Any
    info: FieldInfo


def section_parts(info: FieldInfo, default: Any) -> list[Row]:
    """The policy fields that a section's field declares as the section's own settings
    (``SECTION_VARIABLES``), one row each with the policy's default and description; an
    empty list for any other field."""
    extra = info.json_schema_extra
    if not (isinstance(extra, dict) and isinstance(names := extra.get(SECTION_VARIABLES), list)):
        return []
    described = {part.name: part for part in dataclasses.fields(default)}
    return [
        Row(
            name,
            getattr(default, name),
            FieldInfo(description=described[name].metadata.get("description")),
        )
        for name in map(str, names)
    ]


def default_cell(row: Row, none: str) -> str:
    """The default as the table shows it: the field's own text when it has one, ``none``
    for no value, else the value as JSON."""
    extra = row.info.json_schema_extra
    if isinstance(extra, dict) and SHOWN_DEFAULT in extra:
        return str(extra[SHOWN_DEFAULT])
    if row.default is None or row.default is PydanticUndefined:
        return none
    return f"`{json.dumps(to_jsonable_python(row.default))}`"


def table(heading: str, key_title: str, rows: Iterable[Row], none: str) -> str:
    """A heading and a three-column table: key, default, meaning."""
    lines = [heading, "", f"| {key_title} | default | meaning |", "|---|---|---|"]
    for row in rows:
        description = (row.info.description or "").replace("|", "\\|")
        lines.append(f"| `{row.key}` | {default_cell(row, none)} | {description} |")
    return "\n".join(lines) + "\n"


def replace_between(text: str, begin: str, end: str, body: str) -> str:
    """``text`` with what lies between the ``begin`` and ``end`` markers replaced."""
    start, stop = text.index(begin) + len(begin), text.index(end)
    return text[:start] + "\n" + body + text[stop:]


def write_between(path: Path, blocks: Mapping[tuple[str, str], str]) -> None:
    """Rewrite each ``(begin, end)`` block of the page at ``path``."""
    text = path.read_text(encoding="utf-8")
    for (begin, end), body in blocks.items():
        text = replace_between(text, begin, end, body)
    path.write_text(text, encoding="utf-8")


def main(description: str | None, render: Callable[[], str], write: Callable[[Path], None]) -> None:
    """``--write PAGE`` rewrites the page's blocks; without it the reference is printed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--write", type=Path, help="Markdown file with the reference markers")
    args = parser.parse_args()
    if args.write:
        write(args.write)
    else:
        print(render(), end="")
