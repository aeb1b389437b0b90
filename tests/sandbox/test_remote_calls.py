"""The link between an opaque test's process and the program's, over real pipes (the
program's side served by a thread here; in the sandbox it is another process)."""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sandbox import remote_calls, value_codec
from sandbox.remote_calls import Link, ProgramExit, Remote

CODEC = {
    "encode": value_codec.encode,
    "decode": value_codec.decode,
    "Unsendable": value_codec.Unsendable,
    "has_nan": value_codec.has_nan,
}


class Rigged:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class Custom(KeyError):
    pass


def _leave() -> None:
    raise SystemExit(0)


PROGRAM: dict[str, Any] = {
    "double": lambda x: 2 * x,
    "rigged": lambda: Rigged(),
    "fail": lambda: (_ for _ in ()).throw(Custom("gone")),
    "leave": _leave,
    "apply": lambda f, x: f(x),
    "append": lambda items: items.append(len(items)),
    "math": math,
    "LIMIT": 3,
    "decode": lambda data: data.decode("ascii"),
    "peek": lambda obj, name: getattr(obj, name),
}


class Node:
    """As if the test defined it (its classes live in the test's ``__main__``)."""

    __module__ = "__main__"

    def __init__(self, value: int) -> None:
        self.value, self._hidden = value, "secret"


Connect = Callable[..., tuple[Link, dict[str, Any]]]


@pytest.fixture
def connect() -> Iterator[Connect]:
    """``connect(*names)``: the test's end of a link, and the names the program sent."""
    ends: list[tuple[Link, threading.Thread, list[int], list[int]]] = []

    def start(*wanted: str) -> tuple[Link, dict[str, Any]]:
        to_program_r, to_program_w = os.pipe()
        to_test_r, to_test_w = os.pipe()
        program = Link(to_program_r, to_test_w, CODEC, lambda: None, PROGRAM)
        served: list[int] = []

        def serve() -> None:
            try:
                served.append(program.serve(list(wanted)))
            except SystemExit:  # the program "exited" inside a call: its process would end
                served.append(-1)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        link = Link(to_test_r, to_program_w, CODEC, lambda: None)
        ends.append((link, thread, served, [to_program_r, to_program_w, to_test_r, to_test_w]))
        return link, link.ready()

    yield start
    for link, thread, served, fds in ends:
        if link.ended is None:
            link.send(["end", 7])
            thread.join(5)
            assert served == [7]
        for fd in fds:
            os.close(fd)


def test_values_cross_as_plain_data_and_functions_as_references(connect: Connect) -> None:
    _, names = connect("double", "LIMIT", "missing")
    assert set(names) == {"double", "LIMIT"} and names["LIMIT"] == 3
    assert type(names["double"]) is Remote
    assert names["double"](21) == 42
    assert names["double"]([1]) == [1, 1]


def test_program_objects_refuse_comparison_and_truth(connect: Connect) -> None:
    value = connect("rigged")[1]["rigged"]()
    assert type(value) is Remote
    for attempt in (lambda: value == 1, lambda: value != 1, lambda: bool(value)):
        with pytest.raises(TypeError, match="not plain data"):
            attempt()
    with pytest.raises(value_codec.Unsendable):
        value_codec.encode(value)


def test_exceptions_arrive_as_their_nearest_builtin_class(connect: Connect) -> None:
    link, names = connect("fail")
    with pytest.raises(KeyError, match="gone") as raised:
        names["fail"]()
    assert type(raised.value) is KeyError
    assert link.ended is None


def test_an_exit_inside_a_call_ends_the_test_for_good(connect: Connect) -> None:
    link, names = connect("leave", "double")
    with pytest.raises(ProgramExit):
        names["leave"]()
    assert link.ended is not None
    with pytest.raises(ProgramExit):  # even after a test caught the first one
        names["double"](1)


def test_callbacks_run_on_the_test_side_and_changes_come_back(connect: Connect) -> None:
    _, names = connect("apply", "append")
    seen: list[int] = []

    def key(v: int) -> int:
        seen.append(v)
        return v + 1

    assert names["apply"](key, 1) == 2
    assert seen == [1]
    items = [0]
    names["append"](items)
    assert items == [0, 1]


def test_modules_are_the_test_sides_own(connect: Connect) -> None:
    assert connect("math")[1]["math"] is math


def test_a_message_out_of_protocol_ends_the_test() -> None:
    r, w = os.pipe()
    other_r, other_w = os.pipe()
    link = Link(r, other_w, CODEC, lambda: None)
    remote_calls.Link(other_r, w, CODEC, lambda: None).send(["ok", ["int", "1"]])  # 2 fields
    with pytest.raises(ProgramExit):
        link.request(["getattr", 1, "x"])
    assert link.ended is not None and "broke" in link.ended
    for fd in (r, w, other_r, other_w):
        os.close(fd)


def test_the_program_reads_no_more_of_the_tests_objects_than_their_public_data(
    connect: Connect,
) -> None:
    """A generator's frame would lead to the test process's frames, globals and report
    descriptor; a module to its functions: the test side lends neither."""
    _, names = connect("peek")
    assert names["peek"](Node(5), "value") == 5
    for obj, name in [
        (Node(5), "_hidden"),
        ((x for x in [1]), "gi_frame"),
        ((x for x in [1]), "gi_code"),
    ]:
        with pytest.raises(AttributeError, match="lends no attribute"):
            names["peek"](obj, name)
    with pytest.raises(AttributeError):  # dunders are not even asked for
        names["peek"](key_of, "__globals__")
    with pytest.raises(AttributeError):  # a module reaches the program as its own copy
        names["peek"](os, "no_such_function")


def key_of(value: int) -> int:
    return value


def test_an_exception_that_needs_more_arguments_arrives_as_its_base(connect: Connect) -> None:
    _, names = connect("decode")
    with pytest.raises(ValueError, match="can't decode"):
        names["decode"](b"\xff")
