"""Plain values as type-tagged data, and the comparisons verdicts are made of."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import value_codec
from sandbox.value_codec import (
    Incomparable,
    Unsendable,
    close,
    decode,
    encode,
    has_nan,
    holds,
    same,
    within,
)

PLAIN = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary()
    | st.complex_numbers(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.frozensets(st.integers() | st.text(), max_size=4)
        | st.sets(st.integers() | st.text(), max_size=4)
        | st.dictionaries(st.text() | st.integers(), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(PLAIN)
def test_round_trip_keeps_type_and_value(value: object) -> None:
    wire = json.loads(json.dumps(encode(value)))  # as it travels
    back = decode(wire)
    assert type(back) is type(value)
    assert same(back, value)


def test_floats_keep_every_bit_and_non_finite_values() -> None:
    for value in (0.1, -0.0, 1e308, 5e-324, math.inf, -math.inf):
        back = decode(encode(value))
        assert type(back) is float and back.hex() == value.hex()
    nan = decode(encode(math.nan))
    assert type(nan) is float and math.isnan(nan)


def test_big_ints_survive() -> None:
    assert decode(encode(10**200 + 1)) == 10**200 + 1
    huge = -(7**20000)  # more than Python's 4300-digit limit for decimal text
    assert decode(encode(huge)) == huge


class RiggedInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


class AlwaysEqual:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class SpoofedClass:
    __class__ = int  # type: ignore[assignment]  # isinstance(x, int) is True for this


@pytest.mark.parametrize(
    "value",
    [
        RiggedInt(3),
        AlwaysEqual(),
        SpoofedClass(),
        [1, RiggedInt(2)],
        {"k": AlwaysEqual()},
        type("S", (str,), {})("x"),
        type("L", (list,), {})([1]),
        object(),
        len,
    ],
    ids=[
        "int-subclass",
        "always-equal",
        "spoofed-class",
        "list-with-int-subclass",
        "dict-with-always-equal",
        "str-subclass",
        "list-subclass",
        "object",
        "builtin-function",
    ],
)
def test_anything_but_exact_plain_types_is_unsendable(value: object) -> None:
    with pytest.raises(Unsendable):
        encode(value)


def test_cycles_and_huge_values_are_unsendable() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(Unsendable, match="deeply"):
        encode(loop)
    with pytest.raises(Unsendable, match="too many"):
        encode(list(range(value_codec.MAX_NODES + 1)))


@pytest.mark.parametrize(
    "wire",
    [
        "x",
        ["int"],
        ["int", 3],
        ["int", "three"],
        ["bool", 1],
        ["nope", None],
        ["set", [["list", []]]],
        ["dict", [["str", "k"]]],
        ["list", "abc"],
    ],
    ids=repr,
)
def test_malformed_data_is_refused(wire: object) -> None:
    with pytest.raises(Unsendable):
        decode(wire)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (1, 1.0, True),  # numbers compare as Python does
        (True, 1, False),  # but a bool is not a number
        (False, 0, False),
        (True, True, True),
        ([1, 2], (1, 2), False),  # a list is not a tuple
        ([1, [True]], [1, [1]], False),
        ({"a": 1}, {"a": 1.0}, True),
        ({1, 2}, frozenset({2, 1}), True),
        (None, 0, False),
        ("a", b"a", False),
        (math.nan, math.nan, False),
    ],
)
def test_same(a: object, b: object, expected: bool) -> None:
    assert same(a, b) is expected


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("!=", 1, True, True),
        ("is", None, None, True),
        ("is", 0, None, False),
        ("is not", False, None, True),
        ("in", "b", "abc", True),
        ("in", 1, [True], False),
        ("not in", 3, (1, 2), True),
        ("in", "k", {"k": 1}, True),
        ("<", 1, 2.5, True),
        ("<", True, 2, False),  # no ordering of bools
        ("<=", "a", "b", True),
        (">", [2], [1], False),  # no ordering of containers
        (">=", 3, 3, True),
    ],
)
def test_holds(op: str, a: object, b: object, expected: bool) -> None:
    assert holds(op, a, b) is expected


def test_closeness_is_for_real_numbers_only() -> None:
    assert value_codec.close(0.1 + 0.2, 0.3, 1e-9, 0.0)
    assert not value_codec.close(True, 1.0, 1e-9, 0.0)
    assert value_codec.within(2.0000001, 2, "<", 1e-6)
    assert not value_codec.within("2", 2, "<", 1e-6)
    assert not value_codec.within(2.5, 2, "<=", 0.1)


def test_standard_dict_subclasses_travel_as_dicts() -> None:
    import collections

    for value in (
        collections.Counter("aab"),
        collections.OrderedDict(a=2, b=1),
        collections.defaultdict(int, {"a": 2, "b": 1}),
    ):
        back = decode(encode(value))
        assert type(back) is dict and same(back, {"a": 2, "b": 1})


def test_a_metaclass_with_a_rigged_eq_is_not_mistaken_for_a_plain_type() -> None:
    class Meta(type):
        def __eq__(cls, other: object) -> bool:
            return True

        __hash__ = type.__hash__

    class Fake(dict, metaclass=Meta):  # type: ignore[type-arg]
        pass

    with pytest.raises(Unsendable):
        encode(Fake(a=1))


def test_builtin_types_are_values() -> None:
    for kind in (int, list, type(None), bool):
        assert decode(encode(kind)) is kind
    assert same(decode(encode([int, str])), [int, str])
    assert not same(decode(encode(int)), bool)
    with pytest.raises(Unsendable):
        encode(type("Mine", (), {}))
    with pytest.raises(Unsendable):
        decode(["type", "object"])


def test_sets_and_dict_keys_compare_in_linear_time_and_keep_bools_apart() -> None:
    big = set(range(100_000))
    assert same(big, frozenset(range(100_000)))  # fast: hashed, not pairwise
    assert not same(big, set(range(1, 100_001)))
    assert not same({True, 2}, {1, 2})
    assert not same({(True,)}, {(1,)})
    assert same({(1, frozenset({2.0}))}, {(1.0, frozenset({2}))})
    assert not same({True: "a"}, {1: "a"})
    assert same({1: [True]}, {1.0: [True]})


def test_exact_rationals_and_decimals_travel_and_compare_as_python_does() -> None:
    from decimal import Decimal
    from fractions import Fraction

    for value in (Fraction(1, 3), Fraction(-(10**5000), 7), Decimal("0.10"), Decimal("-1E+5")):
        back = decode(encode(value))
        assert type(back) is type(value) and back == value
    assert same(Fraction(1, 2), 0.5) and same(Decimal("0.5"), Fraction(1, 2))
    assert not same(Fraction(1, 3), 0.333) and not same(Fraction(1, 1), True)
    assert holds("<", Fraction(1, 3), 0.5)
    assert close(Fraction(1, 3), 1 / 3, 1e-9, 0.0)
    # Subclasses are not plain data, whatever their parent.
    with pytest.raises(Unsendable):
        encode(type("F", (Fraction,), {})(1, 2))
    with pytest.raises(Unsendable):
        encode(type("D", (Decimal,), {})("1"))
    with pytest.raises(Unsendable):
        decode(["fraction", ["1", "0"]])  # a zero denominator is malformed, not a crash


def test_sizes_are_bounded_on_the_way_out_and_on_arrival() -> None:
    from decimal import Decimal

    for value in (
        2 ** (value_codec.MAX_INT_BITS + 1),
        "x" * (value_codec.MAX_TEXT + 1),
        Decimal("NaN"),
        Decimal("sNaN"),
        Decimal("Infinity"),
        Decimal("1e999999999"),
        Decimal("1" * (value_codec.MAX_DECIMAL_DIGITS + 1)),
    ):
        with pytest.raises(Unsendable):
            encode(value)
    for forged in (
        ["int", "1" * (value_codec.MAX_INT_BITS // 4 + 2)],
        ["decimal", "NaN"],
        ["decimal", "-Infinity"],
        ["decimal", "1e999999999"],
        ["fraction", ["1", "1" * (value_codec.MAX_INT_BITS // 4 + 2)]],
        ["str", "x" * (value_codec.MAX_TEXT + 1)],
    ):
        with pytest.raises(Unsendable):
            decode(forged)
    assert decode(encode(2**100_000)) == 2**100_000  # large but within the bound


def test_comparisons_that_python_cannot_make_raise_incomparable_never_pass() -> None:
    from decimal import Decimal
    from fractions import Fraction

    with pytest.raises(Incomparable):
        close(10**400, 1.0, 1e-9, 0.0)
    with pytest.raises(Incomparable):
        within(Decimal("1.5"), 1.5, "<", 0.1)
    with pytest.raises(Incomparable):
        holds("!=", Decimal("sNaN"), 1)  # what decode refuses; a signalling NaN raises
    assert holds("<", Fraction(1, 3), Decimal("0.5"))
    assert has_nan(float("nan")) and has_nan(complex(1, float("nan")))
    assert has_nan({"a": [1, (2, float("nan"))]}) and has_nan({float("nan"): 1})
    assert not has_nan([1.0, float("inf"), "nan", Decimal("1")])
