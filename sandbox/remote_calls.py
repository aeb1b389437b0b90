"""Calls between an opaque test's process and the program's process, as plain data.

Self-contained (stdlib only): the warm worker runs this source at start-up, before any job
(like sandbox/value_codec.py), and the host imports it for tests.

An opaque test runs in a process of its own that never runs program code (the *test
process*). It reads the program's names and calls its functions through a :class:`Link`,
a pair of pipes carrying length-prefixed JSON messages, served by the *program process*.
Values cross as value_codec's type-tagged plain data, rebuilt by the receiving
interpreter: what the test gets back is a list, an int or a str of its own, never an
object of the program's with an ``__eq__`` of its own. An object that is not plain data
crosses as a reference: the receiving side gets a :class:`Remote`, which can be called,
have an attribute read or be iterated (each a message to its owner), and nothing else;
comparing it, hashing aside, or asking its truth raises, so it passes no check. The link
is symmetric: a function the test hands the program (a key, a callback) reaches it as a
Remote too, and its calls come back to the test process.

An exception raised by the other side arrives as the name of its nearest builtin class and
its message, and is raised again as that builtin class (``try: ... except ValueError``
works); a ``BaseException`` that is not an ``Exception`` (``KeyboardInterrupt``) and
``SystemExit`` end the test instead: the test process cannot finish, so it reports nothing.
"""

import builtins
import contextlib
import json
import os
import struct
import sys
from collections.abc import Callable
from typing import Any

_HEADER = struct.Struct(">I")
MAX_MESSAGE = 64 * 1024 * 1024
# Bound now, before any program runs in this interpreter.
_dumps = json.dumps
_loads = json.loads
_read = os.read
_write = os.write
_type = type
_builtin_names = dict(builtins.__dict__)
_MUTABLE = (list, dict, set)
_REQUESTS = ("call", "getattr", "iter", "next")


class LinkBroken(Exception):
    """The other side is gone or sent something that is not the protocol."""


class ProgramExit(BaseException):
    """The program exited or raised what ends a program while the test waited for it;
    the test cannot finish. Not an ``Exception``: a test's ``except Exception`` does not
    catch it, and the link remembers it anyway (:attr:`Link.ended`)."""


class Remote:
    """An object that lives on the other side of a link."""

    __slots__ = ("_id", "_kind", "_link")

    def __init__(self, link: "Link", ident: int, kind: str) -> None:
        self._link, self._id, self._kind = link, ident, kind

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._link.call(self, list(args), kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._link.request(["getattr", self._id, name])

    def __iter__(self) -> Any:
        return self._link.request(["iter", self._id])

    def __next__(self) -> Any:
        return self._link.request(["next", self._id])

    def _refuse(self, *_args: object) -> Any:
        raise TypeError(f"a {self._kind} of the program is not plain data: it has no value here")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __len__ = _refuse
    __contains__ = __getitem__ = __index__ = __int__ = __float__ = _refuse
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<a {self._kind} of the program>"


class Link:
    """One end of the link. ``namespace``: the program's names (the program's side only)."""

    def __init__(
        self,
        rfd: int,
        wfd: int,
        codec: dict[str, Any],
        flush: Callable[[], None],
        namespace: dict[str, Any] | None = None,
    ) -> None:
        self.rfd, self.wfd = rfd, wfd
        self._encode = codec["encode"]
        self._decode = codec["decode"]
        self._unsendable: type[Exception] = codec["Unsendable"]
        self._has_nan: Callable[[object], bool] = codec["has_nan"]
        self._flush = flush
        self.namespace = namespace
        self.objects: dict[int, Any] = {}  # our objects the other side holds references to
        # The test's side lends the program its objects for calls and iteration only, and
        # the public attributes of instances of classes the test defined: nothing that
        # leads to its frames, globals, modules or descriptors (see _test_attribute).
        self.test_side = namespace is None
        self.ended: str | None = None  # why the test cannot finish, once it cannot
        # Set on the test's side when the test does not ask about NaN: a NaN from the
        # program then ends the test unpassed (NaN compares false, so ``if abs(f(x) - e)
        # > tol: raise`` would not raise).
        self.refuse_nan = False

    # ---- messages

    def send(self, message: list[Any]) -> None:
        with contextlib.suppress(Exception):
            self._flush()  # what was printed before this message comes out before the reply's
        data = memoryview(_dumps(message, separators=(",", ":")).encode())
        data = memoryview(_HEADER.pack(len(data)) + data)
        try:
            while data:
                data = data[_write(self.wfd, data) :]
        except OSError as exc:
            raise LinkBroken(f"cannot send: {exc}") from None

    def receive(self) -> list[Any]:
        (size,) = _HEADER.unpack(self._exact(_HEADER.size))
        if size > MAX_MESSAGE:
            raise LinkBroken("message too large")
        try:
            message = _loads(self._exact(size))
        except (ValueError, RecursionError):
            raise LinkBroken("message is not JSON") from None
        if _type(message) is not list or not message or _type(message[0]) is not str:
            raise LinkBroken("message is not a list naming its kind")
        return message

    def _exact(self, n: int) -> bytes:
        chunks = []
        while n:
            try:
                chunk = _read(self.rfd, min(n, 1 << 20))
            except OSError as exc:
                raise LinkBroken(f"cannot read: {exc}") from None
            if not chunk:
                raise LinkBroken("the other side closed the link")
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    # ---- values

    def _out(self, value: object) -> Any:
        return self._encode(value, self._reference)

    def _reference(self, value: object) -> list[Any]:
        if isinstance(value, Remote) and _type(value) is Remote and value._link is self:
            return ["yours", value._id]
        if _type(value) is _type(sys):
            name = value.__dict__.get("__name__")
            ident = 0 if self.test_side else self._register(value)
            return ["module", [name if _type(name) is str else "", ident]]
        ident = self._register(value)
        return ["mine", [ident, "function" if callable(value) else "object"]]

    def _register(self, value: object) -> int:
        ident = len(self.objects) + 1
        self.objects[ident] = value
        return ident

    def _in(self, data: object) -> Any:
        value = self._decode(data, 0, self._resolve)
        if self.refuse_nan and self._has_nan(value):
            raise self._end("the program's value is NaN, and the test does not ask about NaN")
        return value

    def _resolve(self, tag: str, payload: Any) -> object:
        if tag == "yours" and _type(payload) is int and payload in self.objects:
            return self.objects[payload]
        if tag == "mine" and _type(payload) is list and len(payload) == 2:
            ident, kind = payload
            if _type(ident) is int and kind in ("function", "object"):
                return Remote(self, ident, kind)
        if tag == "module" and _type(payload) is list and len(payload) == 2:
            name, ident = payload
            if _type(name) is str and _type(ident) is int:
                return _module(name) or Remote(self, ident, "module")
        raise self._unsendable(f"unknown reference {tag!r:.40}")

    # ---- asking

    def request(self, message: list[Any]) -> Any:
        """Send a request and serve the other side's requests until its reply arrives."""
        if self.ended is not None:
            raise ProgramExit(self.ended)
        self.send(message)
        return self._reply()[0]

    def call(self, target: Remote, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if self.ended is not None:
            raise ProgramExit(self.ended)
        self.send(["call", target._id, self._out(args), self._out(kwargs)])
        value, changed = self._reply()
        # The callee's changes to a list, dict or set it was given, made here in place.
        for index, new in changed:
            old: Any = args[index] if _type(index) is int and 0 <= index < len(args) else None
            if _type(old) in _MUTABLE and _type(new) is _type(old):
                old.clear()
                if _type(old) is list:
                    old.extend(new)
                else:
                    old.update(new)
        return value

    def _reply(self) -> tuple[Any, list[Any]]:
        while True:
            try:
                message = self.receive()
                kind = message[0]
                if kind in _REQUESTS:
                    self.serve_one(message)
                    continue
                if kind == "ok" and len(message) == 3 and _type(message[2]) is list:
                    changed = [(i, self._in(v)) for i, v in message[2]]
                    return self._in(message[1]), changed
                if kind == "raised" and len(message) == 3:
                    error = _rebuilt(message[1], message[2])
                elif kind == "exited":
                    error = None
                else:
                    raise LinkBroken(f"unexpected message {kind!r:.40}")
            except (LinkBroken, ValueError, TypeError, KeyError, RecursionError) as exc:
                raise self._end(f"the link to the program broke: {exc}") from None
            if error is None:
                raise self._end("the program exited while the test was calling it")
            raise error

    def _end(self, why: str) -> ProgramExit:
        self.ended = why[:300]
        return ProgramExit(self.ended)

    def ready(self) -> dict[str, Any]:
        """The names the program's side sent once its top level returned. A builtin's name
        or a dunder is dropped whatever the program sent: the test's ``range``, ``all`` or
        ``AssertionError`` stay Python's own."""
        message = self.receive()
        try:
            if len(message) == 2 and message[0] == "ready":
                names = self._in(message[1])
                if _type(names) is dict and all(_type(k) is str for k in names):
                    return {
                        k: v
                        for k, v in names.items()
                        if k not in _builtin_names and not k.startswith("__")
                    }
        except (self._unsendable, ValueError, TypeError, KeyError, RecursionError):
            pass
        raise LinkBroken("no names from the program")

    # ---- answering

    def serve(self, wanted: list[str] | None) -> int:
        """Send the ``wanted`` names (None: every name), then answer requests until the
        other side sends ``["end", code]``; the code."""
        self.send(["ready", self._names(wanted)])
        while True:
            message = self.receive()
            if message[0] == "end" and len(message) == 2 and _type(message[1]) is int:
                return int(message[1])
            if message[0] not in _REQUESTS:
                raise LinkBroken(f"unexpected message {message[0]!r:.40}")
            self.serve_one(message)

    def serve_one(self, message: list[Any]) -> None:
        args: list[Any] = []
        try:
            value = self._perform(message, args)
            changed = [[i, self._out(a)] for i, a in enumerate(args) if _type(a) in _MUTABLE]
            reply = ["ok", self._out(value), changed]
        except SystemExit:
            self.send(["exited"])
            raise
        except self._unsendable as exc:
            reply = ["raised", "ValueError", f"not plain data: {exc}"]
        except BaseException as exc:
            reply = ["raised", _builtin_base(exc), _message(exc)]
        self.send(reply)

    def _perform(self, message: list[Any], args: list[Any]) -> object:
        kind = message[0]
        if len(message) < 2 or message[1] not in self.objects:
            raise LookupError("no such object")
        target = self.objects[message[1]]
        if kind == "call" and len(message) == 4:
            args.extend(self._in(message[2]))
            kwargs = self._in(message[3])
            if _type(kwargs) is not dict or not all(_type(k) is str for k in kwargs):
                raise TypeError("keyword arguments are not a dict of names")
            return target(*args, **kwargs)
        if kind == "getattr" and len(message) == 3 and _type(message[2]) is str:
            if self.test_side and not _test_attribute(target, message[2]):
                raise AttributeError(f"the test lends no attribute {message[2]!r:.40}")
            return getattr(target, message[2])
        if kind == "iter":
            return iter(target)
        if kind == "next":
            return next(target)
        raise TypeError(f"malformed request {kind!r:.40}")

    def _names(self, wanted: list[str] | None) -> list[Any]:
        """The names as a tagged dict; a value too large to send as data is sent as a
        reference (a global table the test does not read must not stop the test)."""
        space = self.namespace or {}
        chosen = [k for k in space if not k.startswith("__")] if wanted is None else wanted
        pairs = []
        for name in chosen:
            if _type(name) is str and name in space:
                try:
                    value = self._out(space[name])
                except self._unsendable:
                    value = self._reference(space[name])
                pairs.append([["str", name], value])
        return ["dict", pairs]


# Exception classes a reply may name: builtin subclasses of Exception. Others end the test.
_EXCEPTION_TYPES = frozenset(
    v for v in _builtin_names.values() if isinstance(v, type) and issubclass(v, Exception)
)


def _rebuilt(name: object, message: object) -> BaseException | None:
    """The builtin exception a reply names, or None when it names no ``Exception``."""
    cls = _builtin_names.get(name) if _type(name) is str else None
    if cls not in _EXCEPTION_TYPES:
        return None
    for base in cls.__mro__:  # UnicodeDecodeError wants five arguments: a ValueError then
        try:
            return base(str(message)[:1000])  # type: ignore[no-any-return]
        except TypeError:
            continue
    return None


def _builtin_base(exc: BaseException) -> str:
    """The nearest builtin class of an exception (a program's ``class E(ValueError)`` is a
    ValueError to the other side)."""
    for cls in _type(exc).__mro__:
        name: str = cls.__name__
        if _builtin_names.get(name) is cls:
            return name
    return "Exception"


def _message(exc: BaseException) -> str:
    try:
        return str(exc)[:1000]
    except BaseException:
        return ""


def _test_attribute(target: object, name: str) -> bool:
    """A public attribute of an instance of a class the test defined (a tree node, a
    record): what a program may read of the test's objects."""
    kind = _type(target)
    return not name.startswith("_") and kind.__dict__.get("__module__") == "__main__"


def _module(name: str) -> object:
    """The standard library module ``name``, this side's own copy (a program's patched
    ``math`` stays on its side); None for any other module."""
    if name.split(".")[0] not in sys.stdlib_module_names:
        return None
    try:
        __import__(name)
    except BaseException:
        return None
    return sys.modules.get(name)
