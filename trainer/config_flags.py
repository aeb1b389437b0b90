"""``grpo-train``'s settings flags, generated from the config as TRL's ``HfArgumentParser``
builds them from its dataclasses.

Every config key is a flag of its own name, ``--section.key VALUE`` (``--grpo.beta 0.02``,
``--training.report_to '[wandb]'``): a number or text as the field's type reads it
(``null`` where the key may be unset), any other value in YAML. A field that carries a
:class:`Flag` also has that short spelling, listed in ``grpo-train --help``
(``--model_path``, ``--max_steps``, ``--mode``), declared next to the field it sets::

    path: Annotated[str, Flag("--model_path", "PATH", "model folder or hub id")] = Field(...)

so adding a flag is one line in :mod:`trainer.config`, and no table maps flags to keys.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo


@dataclass(frozen=True)
class Flag:
    """A config field's short flag: its spelling, metavar and one line of ``--help``.

    ``aliases``: other spellings, accepted and not listed (the guides' ``--model``,
    ``--max-steps``); ``const``: the value of the flag given alone (``--resume``: the
    newest checkpoint); ``choices``: the values accepted, where not the type's own. A flag
    on a boolean field is a switch that sets it true."""

    name: str
    metavar: str | None = None
    help: str = ""
    aliases: tuple[str, ...] = ()
    const: Any = None
    choices: tuple[str, ...] | None = None

    @property
    def dest(self) -> str:
        return self.name.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class ConfigKey:
    """One config key (``section.field``), its field, and its short flag if it has one."""

    key: str
    annotation: Any
    flag: Flag | None


@dataclass(frozen=True)
class GivenValue:
    """A config value from the command line, and the flag spellings that gave it."""

    key: str
    value: Any
    spellings: tuple[str, ...]

    @property
    def source(self) -> str:
        return f"flag {self.spellings[-1]}"


def _flag(info: FieldInfo) -> Flag | None:
    return next((item for item in info.metadata if isinstance(item, Flag)), None)


def config_keys(config: type[BaseModel]) -> Iterator[ConfigKey]:
    """Every key of a sectioned config, in order; a field that holds a policy dataclass
    (``service.http``) gives its fields, which the section reads as its own keys."""
    for section, section_info in config.model_fields.items():
        model = section_info.annotation
        assert isinstance(model, type) and issubclass(model, BaseModel)
        for name, info in model.model_fields.items():
            default = info.get_default(call_default_factory=True)
            if dataclasses.is_dataclass(default) and not isinstance(default, type):
                hints = get_type_hints(type(default))
                for part in dataclasses.fields(default):
                    yield ConfigKey(f"{section}.{part.name}", hints[part.name], None)
            else:
                yield ConfigKey(f"{section}.{name}", info.annotation, _flag(info))


def yaml_value(text: str) -> Any:
    """A flag's value written in YAML (a list, a mapping, a boolean)."""
    return yaml.safe_load(text)


def value_type(annotation: Any) -> tuple[Callable[[str], Any], tuple[str, ...] | None]:
    """How a flag reads the field's value, and its choices: a number or a text (or an enum's
    value) as itself, ``None`` allowed or not; one of a Literal's texts; else YAML."""
    options = [annotation]
    if get_origin(annotation) in (Union, types.UnionType):
        options = [arg for arg in get_args(annotation) if arg is not type(None)]
    if len(options) != 1:
        return yaml_value, None
    (kind,) = options
    if get_origin(kind) is Literal and all(isinstance(v, str) for v in get_args(kind)):
        return str, get_args(kind)
    if kind in (int, float):
        return kind, None
    if kind is str or (isinstance(kind, type) and issubclass(kind, enum.Enum)):
        # An enum's value is read as text; the config checks it (and knows its aliases).
        return str, None
    return yaml_value, None


@dataclass(frozen=True)
class _OrNull:
    """Reads ``null`` as None (for a key that may have no value), else as ``read`` does."""

    read: Callable[[str], Any]

    @property
    def __name__(self) -> str:  # argparse names it in "invalid int value: 'x'"
        return getattr(self.read, "__name__", "value")

    def __call__(self, text: str) -> Any:
        return None if text == "null" else self.read(text)


def add_config_flags(parser: argparse.ArgumentParser, config: type[BaseModel]) -> None:
    """Each key's ``--section.key`` (not listed in ``--help``) and each short flag."""
    for item in config_keys(config):
        read, choices = value_type(item.annotation)
        nullable = read is not yaml_value and type(None) in get_args(item.annotation)
        parser.add_argument(
            f"--{item.key}",
            dest=item.key,
            type=_OrNull(read) if nullable else read,
            choices=choices,
            default=argparse.SUPPRESS,  # absent unless given: a YAML null is a value
            help=argparse.SUPPRESS,
        )
        flag = item.flag
        if flag is None:
            continue
        listed: dict[str, Any] = {"dest": flag.dest, "metavar": flag.metavar}
        if item.annotation is bool:
            listed = {"dest": flag.dest, "action": "store_const", "const": True}
        else:
            listed.update(type=read, choices=flag.choices or choices)
            if flag.const is not None:
                listed.update(nargs="?", const=flag.const)
        parser.add_argument(flag.name, help=flag.help, **listed)
        for alias in flag.aliases:
            parser.add_argument(alias, help=argparse.SUPPRESS, **listed)


def _spellings(argv: Sequence[str]) -> list[str]:
    """The flags of a command line as spelled, in order."""
    return [token.split("=", 1)[0] for token in argv if token.startswith("--")]


def given_values(
    args: argparse.Namespace, argv: Sequence[str], config: type[BaseModel]
) -> list[GivenValue]:
    """The config values the command line sets: the short flags' first, in the config's
    order, then the ``--section.key`` ones (which win); a flag repeated: its last value."""
    spelled = _spellings(argv)
    short: list[GivenValue] = []
    full: list[GivenValue] = []
    for item in config_keys(config):
        if item.key in vars(args):
            full.append(GivenValue(item.key, vars(args)[item.key], (f"--{item.key}",)))
        flag = item.flag
        if flag is not None and getattr(args, flag.dest) is not None:
            names = (flag.name, *flag.aliases)
            used = tuple(s for s in spelled if s in names) or (flag.name,)
            short.append(GivenValue(item.key, getattr(args, flag.dest), used))
    return short + full
