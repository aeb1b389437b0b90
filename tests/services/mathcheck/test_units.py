"""Quantities with units read with their kind and an exact factor to its base unit."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.mathcheck.answer_types import Quantity
from services.mathcheck.latex_tokens import answer_tokens, join
from services.mathcheck.reading import read
from services.mathcheck.units import without_note, written_quantity


@pytest.mark.parametrize(
    ("text", "value", "kind", "factor"),
    [
        (r"3 \text{ hours}", Fraction(3), "time", Fraction(3600)),
        ("1.5 hours", Fraction(3, 2), "time", Fraction(3600)),
        ("90 mins", Fraction(90), "time", Fraction(60)),
        (r"200 \text{ cm}", Fraction(200), "length", Fraction(1, 100)),
        (r"5 \text{ cm}^2", Fraction(5), "length^2", Fraction(1, 10000)),
        ("1 square meter", Fraction(1), "length^2", Fraction(1)),
        ("2 cubic feet", Fraction(2), "length^3", Fraction(3048, 10000) ** 3),
        (r"\$12.40", Fraction(62, 5), "money", Fraction(100)),
        ("1240 cents", Fraction(1240), "money", Fraction(1)),
        ("12 in", Fraction(12), "length", Fraction(254, 10000)),
        (r"\frac{1}{2} hour", Fraction(1, 2), "time", Fraction(3600)),
        ("3 lbs", Fraction(3), "mass", Fraction(45359237, 100000)),
        # Rates: the two kinds, the quotient of the factors.
        (r"36 \text{ km/h}", Fraction(36), "length/time", Fraction(5, 18)),
        ("10 m/s", Fraction(10), "length/time", Fraction(1)),
        (r"10 \mathrm{m}/\mathrm{s}", Fraction(10), "length/time", Fraction(1)),
        ("36km/h", Fraction(36), "length/time", Fraction(5, 18)),
        ("60 mph", Fraction(60), "length/time", Fraction(1609344, 3600000)),
        ("60 miles per hour", Fraction(60), "length/time", Fraction(1609344, 3600000)),
        ("88 ft/s", Fraction(88), "length/time", Fraction(3048, 10000)),
        ("9.8 m/s^2", Fraction(49, 5), "length/time^2", Fraction(1)),
        ("2 L/min", Fraction(2), "volume/time", Fraction(1000, 60)),
        ("5 g/cm^3", Fraction(5), "mass/length^3", Fraction(10**6)),
    ],
)
def test_a_quantity_reads_as_value_kind_and_factor(
    text: str, value: Fraction, kind: str, factor: Fraction
) -> None:
    quantity = read(text)
    assert isinstance(quantity, Quantity)
    assert (quantity.value, quantity.kind, quantity.factor) == (value, kind, factor)
    assert quantity.number.parsed.value == value


@pytest.mark.parametrize(
    "spellings",
    [
        ("2 h", "2 hours", "2 hr", r"2 \text{ hours}"),
        ("60 mph", "60 mi/h", "60 miles per hour", r"60 \text{ mi/hr}"),
    ],
)
def test_spellings_of_one_unit_read_alike(spellings: tuple[str, ...]) -> None:
    quantities = [read(text) for text in spellings]
    assert len({quantity.canonical for quantity in quantities}) == 1
    assert all(isinstance(quantity, Quantity) for quantity in quantities)


@pytest.mark.parametrize(
    "text",
    [
        "5",  # no unit
        "x cm",  # no number
        "5 apples",  # a unit of no known kind: decoration, left to normalisation
        "5 s^2",  # only lengths have areas and volumes
        "50% m",  # a percentage is not an amount
        "5 m/n",  # "n" is no unit
        "5 mph^2",
        # One letter against its number is a variable: "10m" is ten times m, as "2t" is.
        "10m",
        "5m^2",
        "$10m$",
    ],
)
def test_other_texts_are_no_quantity(text: str) -> None:
    assert not isinstance(read(text), Quantity)


def test_quantities_of_one_kind_joined_are_their_sum() -> None:
    # No one quantity: the amount before "minutes" is "3 hours and 5", no number.
    written = written_quantity(answer_tokens("3 hours and 5 minutes"))
    assert written is not None and join(list(written.amount)) == "3 hours and 5"
    summed = read("3 hours and 5 minutes")
    assert isinstance(summed, Quantity)
    assert (summed.value, summed.kind, summed.factor) == (Fraction(37, 12), "time", Fraction(3600))


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("1{,}000 km/h", "1,000"),
        (r"\dfrac{1}{2} \text{ hour}", r"\frac{1}{2}"),
        (r"\textbf{5} \text{ cm}", "5"),
    ],
)
def test_an_amount_is_read_in_its_canonical_form(text: str, amount: str) -> None:
    quantity = read(text)
    assert isinstance(quantity, Quantity)
    assert quantity.number.canonical == amount


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("10 m", Fraction(10), "length"),  # spaced
        (r"5\text{ m}", Fraction(5), "length"),  # wrapped in text
        (r"5 \mathrm{m}", Fraction(5), "length"),
        (r"5\mathrm{m}", Fraction(5), "length"),
        (r"5\,m", Fraction(5), "length"),
        ("10cm", Fraction(10), "length"),  # two letters glued are a unit
        ("10m/s", Fraction(10), "length/time"),  # a rate keeps its letters
    ],
)
def test_a_unit_of_one_letter_is_spaced_or_wrapped(text: str, value: Fraction, kind: str) -> None:
    quantity = read(text)
    assert isinstance(quantity, Quantity)
    assert (quantity.value, quantity.kind) == (value, kind)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2 \\text{ (only solution)}", "2"),
        ("8 \\mathrm{cm}^2", "8"),
        ("3\\sqrt{2} \\text{ m}", "3\\sqrt{2}"),
        ("3.75 per pound", "3.75"),
        ("5 per cent", "5 per cent"),  # a percentage, not a price
        ("2t", "2t"),  # a last letter is a variable
        ("\\text{Yes}", "\\text{Yes}"),  # the note is the whole answer
        ("5\\text{ m}", "5"),
        ("5 \\mathrm{m}", "5"),
        ("8 \\text{ cm}^3", "8"),
        ("8\\pi \\,\\text{m}", "8\\pi"),
        ("9 \\, \\text{m}^2", "9"),
        ("4 \\textbf{ apples}", "4"),
        # A letter in a font for variables is a variable, never a unit.
        ("4\\mathbf{k}", "4\\mathbf{k}"),
        ("x\\mathbf{y}", "x\\mathbf{y}"),
        ("2\\mathit{m}", "2\\mathit{m}"),
        ("3\\mathbf{i} - \\mathbf{j} + 2\\mathbf{k}", "3\\mathbf{i} - \\mathbf{j} + 2\\mathbf{k}"),
        # One letter in a text font is a unit only when it is one and follows a number.
        ("a\\mathrm{b}", "a\\mathrm{b}"),
        ("2\\mathrm{e}", "2\\mathrm{e}"),
        ("3 + 2\\mathrm{i}", "3 + 2\\mathrm{i}"),
        ("x\\text{ m}", "x\\text{ m}"),
    ],
)
def test_without_note(text: str, value: str) -> None:
    assert without_note(text) == value


# A letter in a font is dropped before the symbolic engine only when it is a unit after a
# number: else "4\\mathbf{k}" would equal 4 and "a\\mathrm{b}" equal a (wrong accepts).
_VALUES = st.sampled_from(["4", "x", "a", "\\frac{1}{2}", "2\\pi", "3 + 2"])
_LETTERS = st.characters(min_codepoint=ord("a"), max_codepoint=ord("z")) | st.characters(
    min_codepoint=ord("A"), max_codepoint=ord("Z")
)


@given(value=_VALUES, font=st.sampled_from(["mathbf", "mathit"]), letter=_LETTERS)
def test_a_letter_in_a_font_for_variables_is_never_dropped(
    value: str, font: str, letter: str
) -> None:
    text = f"{value}\\{font}{{{letter}}}"
    assert without_note(text) == text


@given(value=_VALUES, font=st.sampled_from(["text", "mathrm", "textrm", "mbox"]), letter=_LETTERS)
def test_a_letter_in_a_text_font_is_dropped_only_as_a_unit_after_a_number(
    value: str, font: str, letter: str
) -> None:
    text = f"{value}\\{font}{{ {letter}}}"
    dropped = without_note(text) != text
    assert dropped == (letter.lower() in {"m", "s", "h", "g", "l"} and value not in ("x", "a"))
