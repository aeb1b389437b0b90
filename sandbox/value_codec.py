"""Plain values as type-tagged data, and the comparisons a test verdict is made of.

Self-contained (stdlib only, no package imports): the warm worker executes this file's
source before any job runs, so the encoder a job uses was bound before the program could
patch anything; the host imports it to decode and compare.

Only values of these exact types can be sent: None, bool, int, float, complex,
fractions.Fraction, decimal.Decimal, str, bytes, list, tuple, dict, set, frozenset, nested
(and the standard library's Counter, OrderedDict and defaultdict, sent as a dict).
Exactness is the point: an ``int`` subclass or an object with its own ``__eq__`` is not
plain data, so a program cannot make a value that "equals anything". Comparisons then
run on values the host rebuilt itself, where every ``__eq__`` is Python's own.

Sizes are bounded, on the way out and again on arrival (a report may be forged): an int of
at most ``MAX_INT_BITS`` bits, text of at most ``MAX_TEXT`` characters, ``MAX_NODES``
elements, ``MAX_DEPTH`` levels. A Fraction is rebuilt from two such ints, a Decimal from
its text, and only a finite Decimal whose exponent and digits are bounded crosses
(``Decimal('NaN')`` and ``Decimal('1e999999999')`` cannot be compared or subtracted
without raising): both are the receiving interpreter's own classes, never the program's
objects.

The comparisons below raise ``Incomparable`` for values they cannot relate (a float
against an int too large for it, a Decimal against a Fraction in arithmetic): the caller
fails the check with that reason; a comparison never turns into a pass by raising.
"""

import collections
import math
from collections.abc import Callable
from typing import Any

MAX_DEPTH = 64
MAX_NODES = 200_000
MAX_INT_BITS = 1 << 17  # about 39,000 decimal digits
MAX_TEXT = 1 << 22  # characters of a str, bytes of a bytes
MAX_DECIMAL_DIGITS = 4300
MAX_DECIMAL_EXPONENT = 100_000

# Bound now, before any program runs in this interpreter (the worker runs this source at
# start-up): later patches of the names below do not reach these references.
_type = type
_len = len
_format_int = int.__format__
_repr_float = float.__repr__
_bytes_hex = bytes.hex
_dict_items = dict.items
_list_append = list.append
_real = complex.real.__get__
_imag = complex.imag.__get__
# The standard library's dict subclasses: their contents are read with dict's own C-level
# ``items``, so no method of theirs (patched or not) runs; they are sent as a dict, and
# ``Counter({"a": 1}) == {"a": 1}`` holds as in Python.
_counter = collections.Counter
_ordered = collections.OrderedDict
_default = collections.defaultdict
# Exact rationals and decimals (a program may well return ``Fraction(1, 3)``): read with
# their classes' own property getters and ``__str__``, bound here. A worker that can no
# longer read the standard library (isolation=none started as root, after its uid drop)
# goes without them: such values then fail as unsendable, never pass.
_fraction: Any = None
_decimal: Any = None
try:
    from decimal import Decimal as _decimal
    from fractions import Fraction as _fraction
except ImportError:  # pragma: no cover - only inside such a worker
    pass
_numerator: Any = _fraction.numerator.__get__ if _fraction is not None else None
_denominator: Any = _fraction.denominator.__get__ if _fraction is not None else None
_decimal_str: Any = _decimal.__str__ if _decimal is not None else None
_decimal_tuple: Any = _decimal.as_tuple if _decimal is not None else None
_decimal_finite: Any = _decimal.is_finite if _decimal is not None else None
_bit_length = int.bit_length
# Builtin types themselves are values too (``assert type(f(x)) == list``); by identity.
_TYPES = (type(None), bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset)
_TYPE_NAMES = {t.__name__: t for t in _TYPES}

Tagged = list[Any]  # [tag, payload]
# Hooks for values that are not plain data, used only between an opaque test's process and
# the program's (sandbox/remote_calls.py sends such values as references); the host never
# passes them, so for it such values stay unsendable.
EncodeOther = Callable[[Any], Tagged]
DecodeOther = Callable[[str, Any], object]


class Unsendable(ValueError):
    """The value is not plain data (or is too deep or too large to send)."""


class Incomparable(ValueError):
    """Two plain values that a comparison cannot relate (the check fails)."""


def _bounded_int(value: int) -> int:
    if _bit_length(value) > MAX_INT_BITS:
        raise Unsendable(f"an int of more than {MAX_INT_BITS} bits")
    return value


def _bounded_text(value: Any) -> Any:
    if _len(value) > MAX_TEXT:
        raise Unsendable(f"text of more than {MAX_TEXT} characters")
    return value


def _bounded_decimal(value: Any) -> Any:
    if not _decimal_finite(value):
        raise Unsendable("a Decimal that is not a finite number")
    parts = _decimal_tuple(value)
    if _len(parts.digits) > MAX_DECIMAL_DIGITS or not (
        -MAX_DECIMAL_EXPONENT <= parts.exponent <= MAX_DECIMAL_EXPONENT
    ):
        raise Unsendable("a Decimal with too many digits or too large an exponent")
    return value


def encode(value: object, other: EncodeOther | None = None) -> Tagged:
    """``value`` as ``[tag, payload]`` JSON-able data; raises Unsendable, or asks ``other``
    for a value that is not plain data."""
    budget = [MAX_NODES]
    return _encode(value, 0, budget, other)


def _encode(value: Any, depth: int, budget: list[int], other: EncodeOther | None) -> Tagged:
    if depth > MAX_DEPTH:
        raise Unsendable("nested too deeply")
    budget[0] -= 1
    if budget[0] < 0:
        raise Unsendable("too many elements")
    kind = _type(value)
    if value is None:
        return ["none", None]
    if kind is bool:
        return ["bool", value is True]
    if kind is int:
        # Hexadecimal text: JSON numbers lose big ints, and decimal text of more than 4300
        # digits is refused by Python (power-of-two bases are not limited).
        return ["int", _format_int(_bounded_int(value), "x")]
    if kind is float:
        return ["float", _repr_float(value)]  # text: JSON has no nan/inf
    if kind is complex:
        return ["complex", [_repr_float(_real(value)), _repr_float(_imag(value))]]
    if _fraction is not None and kind is _fraction:
        numerator = _bounded_int(_numerator(value))
        pair = [_format_int(numerator, "x"), _format_int(_bounded_int(_denominator(value)), "x")]
        return ["fraction", pair]
    if _decimal is not None and kind is _decimal:
        return ["decimal", _decimal_str(_bounded_decimal(value))]
    if kind is str:
        return ["str", _bounded_text(value)]
    if kind is bytes:
        return ["bytes", _bytes_hex(_bounded_text(value))]
    if kind is list or kind is tuple or kind is set or kind is frozenset:
        items: list[Tagged] = []
        for item in value:
            _list_append(items, _encode(item, depth + 1, budget, other))
        return [kind.__name__, items]
    if kind is dict or kind is _counter or kind is _ordered or kind is _default:
        pairs: list[list[Tagged]] = []
        for key, item in _dict_items(value):
            entry: list[Tagged] = [
                _encode(key, depth + 1, budget, other),
                _encode(item, depth + 1, budget, other),
            ]
            _list_append(pairs, entry)
        return ["dict", pairs]
    for builtin in _TYPES:
        if value is builtin:
            return ["type", builtin.__name__]
    if other is not None:
        return other(value)
    raise Unsendable(f"a {kind.__name__} object is not plain data")


_SCALARS: dict[str, Callable[[Any], object]] = {
    "none": lambda p: None,
    "bool": lambda p: _exact(p, bool),
    "int": lambda p: _bounded_int(int(_bounded_text(_exact(p, str)), 16)),
    "float": lambda p: float(_bounded_text(_exact(p, str))),
    "str": lambda p: _bounded_text(_exact(p, str)),
    "bytes": lambda p: _bounded_text(bytes.fromhex(_exact(p, str))),
}
_SEQUENCES: dict[str, Callable[[list[object]], object]] = {
    "list": list,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
}


def _exact(payload: object, kind: type) -> Any:
    if type(payload) is not kind:
        raise Unsendable(f"payload {payload!r:.40} is not a {kind.__name__}")
    return payload


def decode(data: object, depth: int = 0, other: DecodeOther | None = None) -> object:
    """The value ``encode`` described; raises Unsendable for anything malformed. A tag of
    its own is given to ``other`` (tag, payload) when there is one."""
    if depth > MAX_DEPTH:
        raise Unsendable("nested too deeply")
    if type(data) is not list or len(data) != 2 or type(data[0]) is not str:
        raise Unsendable("not a [tag, payload] pair")
    tag, payload = data
    try:
        if tag in _SCALARS:
            return _SCALARS[tag](payload)
        if tag == "type":
            return _TYPE_NAMES[_exact(payload, str)]
        if tag == "fraction":
            numerator, denominator = _exact(payload, list)
            return _fraction(_SCALARS["int"](numerator), _SCALARS["int"](denominator))
        if tag == "decimal":
            return _bounded_decimal(_decimal(_bounded_text(_exact(payload, str))))
        if tag == "complex":
            real, imag = _exact(payload, list)
            return complex(float(_exact(real, str)), float(_exact(imag, str)))
        if tag in _SEQUENCES:
            items = [decode(item, depth + 1, other) for item in _exact(payload, list)]
            return _SEQUENCES[tag](items)
        if tag == "dict":
            out: dict[object, object] = {}
            for pair in _exact(payload, list):
                key, item = _exact(pair, list)
                out[decode(key, depth + 1, other)] = decode(item, depth + 1, other)
            return out
    # Unhashable, bad number text, a zero denominator, no such type.
    except (TypeError, ValueError, KeyError, ArithmeticError) as exc:
        raise Unsendable(f"malformed {tag}: {exc}") from None
    if other is not None:
        return other(tag, payload)
    raise Unsendable(f"unknown tag {tag!r:.40}")


# ---------------------------------------------------------------- comparisons on plain values

_NUMBERS = (int, float, complex, _fraction, _decimal)
_REALS = (int, float, _fraction, _decimal)


def _is_number(value: object) -> bool:
    return type(value) in _NUMBERS  # bool is not a number here


def _numeric(relation: Callable[[], object]) -> bool:
    """A relation between numbers, or Incomparable where Python cannot decide it."""
    try:
        return bool(relation())
    except (ArithmeticError, TypeError, ValueError) as exc:
        raise Incomparable(f"the values cannot be compared: {type(exc).__name__}") from None


def has_nan(value: object, depth: int = 0) -> bool:
    """Whether a plain value is NaN or holds one (in a complex, a container, a key)."""
    kind = type(value)
    if kind is float:
        return value != value
    if kind is complex:
        return value != value  # NaN in either part
    if kind in (list, tuple, set, frozenset) and depth < MAX_DEPTH:
        return any(has_nan(item, depth + 1) for item in value)  # type: ignore[attr-defined]
    if kind is dict and depth < MAX_DEPTH:
        items = value.items()  # type: ignore[attr-defined]
        return any(has_nan(k, depth + 1) or has_nan(v, depth + 1) for k, v in items)
    return False


def same(a: Any, b: Any) -> bool:
    """``a == b`` as Python compares plain values, except that a bool equals only a bool
    (``True`` is not ``1``) and a list is not a tuple. Numbers compare as Python does."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a is b
    if _is_number(a) and _is_number(b):
        return _numeric(lambda: a == b)
    if a is None or b is None:
        return a is b
    if type(a) in (set, frozenset) and type(b) in (set, frozenset):
        return len(a) == len(b) and {_key(x) for x in a} == {_key(y) for y in b}
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is dict:
        assert type(b) is dict
        theirs = {_key(k): v for k, v in b.items()}
        mine = {_key(k): v for k, v in a.items()}
        return mine.keys() == theirs.keys() and all(same(v, theirs[k]) for k, v in mine.items())
    return bool(a == b)  # str, bytes, builtin types


def _key(value: Any) -> Any:
    """A hashable value's stand-in under ``same``'s rules, for set and dict-key lookups in
    linear time: bools tagged apart from numbers, tuples and frozensets element by element
    (a set of 100,000 elements must not take 10^10 comparisons on the host)."""
    if type(value) is bool:
        return ("bool", value)
    if type(value) is tuple:
        return ("tuple", tuple(_key(v) for v in value))
    if type(value) is frozenset:
        return ("frozenset", frozenset(_key(v) for v in value))
    return ("number", value) if _is_number(value) else (type(value).__name__, value)


def contains(container: Any, item: Any) -> bool:
    """``item in container`` on plain values (substring for text)."""
    if type(container) in (str, bytes):
        return type(item) is type(container) and item in container
    if type(container) is dict:
        return any(same(item, key) for key in container)
    if type(container) in (list, tuple, set, frozenset):
        return any(same(item, element) for element in container)
    return False


def ordered(op: str, a: object, b: object) -> bool:
    """``a < b`` (and <=, >, >=) for two real numbers or two texts; False otherwise."""
    both_real = type(a) in _REALS and type(b) in _REALS
    both_text = type(a) in (str, bytes) and type(a) is type(b)
    if not (both_real or both_text):
        return False
    x: Any = a
    y: Any = b
    relations = {"<": lambda: x < y, "<=": lambda: x <= y, ">": lambda: x > y, ">=": lambda: x >= y}
    return _numeric(relations[op])


def truthy(value: object) -> bool:
    """Python's truth value of a plain value (no ``__bool__`` of the program's runs)."""
    return bool(value)


def close(a: Any, b: Any, rel_tol: float, abs_tol: float) -> bool:
    """``math.isclose`` for two real numbers; False for anything else."""
    if type(a) not in _REALS or type(b) not in _REALS:
        return False
    return _numeric(lambda: math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol))


def within(a: Any, b: Any, op: str, tol: Any) -> bool:
    """``abs(a - b) < tol`` (or ``<=``) for real numbers; False for anything else."""
    if type(a) not in _REALS or type(b) not in _REALS or type(tol) not in _REALS:
        return False
    # Decimal and float do not mix in arithmetic; an int too large for a float does not
    # subtract from one: Incomparable, so the check fails with the reason.
    return ordered(op, _numeric_value(lambda: abs(a - b)), tol)


def _numeric_value(compute: Callable[[], object]) -> object:
    try:
        return compute()
    except (ArithmeticError, TypeError, ValueError) as exc:
        raise Incomparable(f"the values cannot be compared: {type(exc).__name__}") from None


def holds(op: str, a: object, b: object) -> bool:
    """The relation ``a OP b`` of one split assert, on plain values."""
    if op == "==":
        return same(a, b)
    if op == "!=":
        return not same(a, b)
    if op == "is":
        return type(a) is type(b) and same(a, b)  # only None/True/False reach here
    if op == "is not":
        return not (type(a) is type(b) and same(a, b))
    if op == "in":
        return contains(b, a)
    if op == "not in":
        return not contains(b, a)
    return ordered(op, a, b)
