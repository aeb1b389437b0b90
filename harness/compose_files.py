"""Compose files as `docker compose config` would see them: `.env` interpolation.

There is no Docker engine here, so the interpolation rules compose applies to its files
are reproduced: ``${VAR}``, ``${VAR:-default}``, ``${VAR-default}``, ``${VAR:?error}``,
``${VAR?error}``, ``${VAR:+alt}``, ``${VAR+alt}`` and ``$$`` for a literal ``$``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_FILES = (
    ROOT / "compose.yaml",
    ROOT / "deploy" / "compose.q.yaml",
    ROOT / "deploy" / "compose.cpu.yaml",
)
ENV_EXAMPLE = ROOT / ".env.example"

_REFERENCE = re.compile(
    r"\$\$|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}"
)


class InterpolationError(ValueError):
    """A ``${VAR:?message}`` whose variable is missing: compose refuses the file."""


def read_env_file(path: Path = ENV_EXAMPLE) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments skipped (what .env holds after a copy)."""
    env: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env


def interpolate(text: str, env: dict[str, str]) -> str:
    def replace(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, op, arg = match.group("name"), match.group("op"), match.group("arg") or ""
        value = env.get(name)
        # With a colon, an empty value counts as unset.
        missing = value is None or (op is not None and op.startswith(":") and value == "")
        if op in (":-", "-"):
            return arg if missing else str(value)
        if op in (":?", "?"):
            if missing:
                raise InterpolationError(f"{name}: {arg}")
            return str(value)
        if op in (":+", "+"):
            return "" if missing else arg
        return value or ""

    return _REFERENCE.sub(replace, text)


class _ComposeLoader(yaml.SafeLoader):
    """YAML with compose's merge tags: ``!reset`` (drop what the files before set) and
    ``!override`` (replace instead of merge). Read here as their plain values, which is
    what the override file itself declares."""


def _plain(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)  # type: ignore[arg-type]


for _tag in ("!reset", "!override"):
    _ComposeLoader.add_constructor(_tag, _plain)


def load_compose(path: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """The file's YAML; interpolated with ``env`` when one is given."""
    text = path.read_text()
    data = yaml.load(text if env is None else interpolate(text, env), Loader=_ComposeLoader)
    assert isinstance(data, dict), path
    return data


def variables_used(path: Path) -> set[str]:
    return {m.group("name") for m in _REFERENCE.finditer(path.read_text()) if m.group("name")}
