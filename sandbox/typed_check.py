"""Checking a decoded JSON value against a TypedDict, field by field, before it is used.

Stdlib only: the worker runs it (shipped as source, see ``sandbox/worker_main.py``) on
every frame from the host, and the host on every frame from a worker. A check is built
once per type from its hints: records (required and unknown keys), unions, ``Literal``,
``list``, ``dict`` with text keys, and plain ``str``/``int``/``float``/``bool``.
"""

# No ``from __future__ import annotations``: the hints are read as objects.
import types
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin, get_type_hints, is_typeddict


class FrameError(ValueError):
    """A frame that is not JSON or does not match its type."""


Check = Callable[[object, str], str | None]  # (value, where) -> the problem, or None
_CHECKS: dict[Any, Check] = {}


def show(value: object) -> str:
    """A value for an error message, cut short (a frame may carry megabytes)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "…"


def _check(hint: Any) -> Check:
    """A function telling why a value does not match ``hint`` (built once per type)."""
    check = _CHECKS.get(hint)
    if check is None:
        check = _CHECKS[hint] = _build_check(hint)
    return check


def _build_check(hint: Any) -> Check:
    origin, args = get_origin(hint), get_args(hint)
    if is_typeddict(hint):
        return _record_check(hint)
    if origin is types.UnionType:
        options = [_check(arg) for arg in args]
        name = " or ".join(getattr(arg, "__name__", str(arg)) for arg in args)
        return lambda v, where: (
            None
            if any(c(v, where) is None for c in options)
            else f"{where}: expected {name}, got {type(v).__name__}"
        )
    if origin is Literal:
        return lambda v, where: (
            None if v in args else f"{where}: expected one of {list(args)}, got {show(v)}"
        )
    if origin is list:
        item = _check(args[0])

        def check_list(v: object, where: str) -> str | None:
            if not isinstance(v, list):
                return f"{where}: expected a list, got {type(v).__name__}"
            return next(filter(None, (item(x, f"{where}[{i}]") for i, x in enumerate(v))), None)

        return check_list
    if origin is dict:
        value = _check(args[1])

        def check_dict(v: object, where: str) -> str | None:
            if not isinstance(v, dict) or not all(isinstance(k, str) for k in v):
                return f"{where}: expected an object, got {type(v).__name__}"
            return next(filter(None, (value(x, f"{where}.{k}") for k, x in v.items())), None)

        return check_dict
    # JSON has no int/float distinction for whole numbers; bool is never a number.
    accept = (int, float) if hint is float else hint
    return lambda v, where: (
        None
        if isinstance(v, accept) and not (isinstance(v, bool) and hint is not bool)
        else f"{where}: expected {hint.__name__}, got {type(v).__name__}"
    )


def _record_check(shape: Any) -> Check:
    fields = {key: _check(hint) for key, hint in get_type_hints(shape).items()}
    required = shape.__required_keys__

    def check_record(v: object, where: str) -> str | None:
        if not isinstance(v, dict):
            return f"{where}: expected an object, got {type(v).__name__}"
        missing = sorted(required - v.keys())
        if missing:
            return f"{where}: missing {', '.join(missing)}"
        unknown = sorted(map(show, v.keys() - fields.keys()))
        if unknown:
            return f"{where}: unknown {', '.join(unknown)}"
        return next(filter(None, (fields[k](x, f"{where}.{k}") for k, x in v.items())), None)

    return check_record


def expect(value: object, shape: Any, where: str) -> Any:
    """``value`` itself when it matches ``shape``; FrameError naming the first problem."""
    problem = _check(shape)(value, where)
    if problem:
        raise FrameError(problem)
    return value
