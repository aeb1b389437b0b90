"""Compose's `.env` interpolation and YAML tags, reproduced without a Docker engine: read
on files written here, then on the project's own compose files.

The basic `:-`/`-` defaults, `$$` and a missing `:?` variable in deploy/compose.q.yaml are
checked by tests/deploy/test_compose.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.compose_files import (
    InterpolationError,
    interpolate,
    load_compose,
    read_env_file,
    variables_used,
)

ENV = {"SET": "x", "EMPTY": ""}


def test_read_env_file_skips_blanks_and_comments_and_keeps_what_follows_the_first_equals(
    tmp_path: Path,
) -> None:
    path = tmp_path / ".env"
    path.write_text("# a comment\n\n  KEY = value \nURL=http://h/?a=b\n   # indented\nEMPTY=\n")
    assert read_env_file(path) == {"KEY": "value", "URL": "http://h/?a=b", "EMPTY": ""}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${SET}|${EMPTY}|${UNSET}", "x||"),
        ("${SET:+alt}|${EMPTY:+alt}|${UNSET:+alt}", "alt||"),
        ("${SET+alt}|${EMPTY+alt}|${UNSET+alt}", "alt|alt|"),
        ("${SET:?need SET}|${EMPTY?only set}", "x|"),
        ("$${SET} $SET ${SET:-a:b}", "${SET} $SET x"),
        ("${UNSET:-a b}", "a b"),
    ],
)
def test_interpolate(text: str, expected: str) -> None:
    assert interpolate(text, ENV) == expected


@pytest.mark.parametrize("text", ["${EMPTY:?EMPTY must be set}", "${UNSET?UNSET must be set}"])
def test_a_required_variable_that_is_missing_is_refused_with_its_message(text: str) -> None:
    with pytest.raises(InterpolationError) as info:
        interpolate(text, ENV)
    name = text[2:].split(":")[0].split("?")[0]
    assert str(info.value) == f"{name}: {name} must be set"


def test_load_compose_reads_reset_and_override_tags_as_their_values(tmp_path: Path) -> None:
    path = tmp_path / "compose.yaml"
    path.write_text(
        "services:\n"
        "  app:\n"
        "    image: ${IMAGE:-app:latest}\n"
        "    deploy: !reset {}\n"
        "    ports: !override\n"
        "      - ${PORT}:80\n"
    )
    assert load_compose(path, {"PORT": "8080"}) == {
        "services": {"app": {"image": "app:latest", "deploy": {}, "ports": ["8080:80"]}}
    }
    raw = load_compose(path)  # no env: the references are left as written
    assert raw["services"]["app"]["image"] == "${IMAGE:-app:latest}"
    assert variables_used(path) == {"IMAGE", "PORT"}
