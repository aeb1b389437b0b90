"""The one writer of the settings references in docs/: cells, tables and marked blocks."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import pytest
from pydantic.fields import FieldInfo

from services.reference_docs import (
    SHOWN_DEFAULT,
    Row,
    default_cell,
    replace_between,
    table,
    write_between,
)


class _Colour(StrEnum):
    RED = "red"


@pytest.mark.parametrize(
    ("default", "cell"),
    [
        (3, "`3`"),
        (0.25, "`0.25`"),
        ("text", '`"text"`'),
        (_Colour.RED, '`"red"`'),
        ({"X-Team": "rl"}, '`{"X-Team": "rl"}`'),
        (None, "unset"),
    ],
)
def test_a_default_is_shown_as_json_or_as_the_none_text(default: object, cell: str) -> None:
    assert default_cell(Row("KEY", default, FieldInfo()), none="unset") == cell


def test_a_computed_default_shows_the_fields_own_text() -> None:
    info = FieldInfo(json_schema_extra={SHOWN_DEFAULT: "CPU count"})
    assert default_cell(Row("WORKERS", 16, info), none="unset") == "CPU count"


def test_a_table_has_one_row_per_setting_and_escapes_pipes() -> None:
    rows = [
        Row("A", 1, FieldInfo(description="one | two")),
        Row("B", None, FieldInfo(description="b")),
    ]
    text = table("### T", "key", rows, none="`null`")
    assert text.splitlines() == [
        "### T",
        "",
        "| key | default | meaning |",
        "|---|---|---|",
        "| `A` | `1` | one \\| two |",
        "| `B` | `null` | b |",
    ]


def test_only_the_text_between_each_pair_of_markers_is_rewritten(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("intro\n<!-- a -->\nold a\n<!-- /a -->\nmiddle\n<!-- b -->old b<!-- /b -->\n")
    write_between(
        page, {("<!-- a -->", "<!-- /a -->"): "new a\n", ("<!-- b -->", "<!-- /b -->"): "new b\n"}
    )
    assert page.read_text() == (
        "intro\n<!-- a -->\nnew a\n<!-- /a -->\nmiddle\n<!-- b -->\nnew b\n<!-- /b -->\n"
    )


def test_a_page_without_its_markers_is_an_error() -> None:
    with pytest.raises(ValueError):
        replace_between("no markers here", "<!-- a -->", "<!-- /a -->", "x")
