"""The readers' front end (``alignment.as_latex``), in-process: each answer written as LaTeX
on its own, whatever the other side of the pair is."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.mathcheck.alignment import align, as_latex, latex_tokens
from services.mathcheck.latex_tokens import join, tokenize


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        # a derivative's name carries no value
        ("\\frac{dy}{dx} = 2x", " 2x"),
        # a degree sign under a trigonometric function
        ("\\sin 30^\\circ", "\\sin (30\\pi/180)"),
        ("2(\\cos 60^\\circ + i \\sin 60^\\circ)", "2(\\cos (60\\pi/180)+ i \\sin (60\\pi/180))"),
    ],
)
def test_written_as_latex(text: str, latex: str) -> None:
    assert as_latex(text) == latex


@pytest.mark.parametrize(
    "text",
    [
        # Notations that mean something only next to the other side are typed values
        # (reading.py), compared by the conversion table (comparison.py): left as written.
        "30^\\circ",
        "(C) 12",
        "1011_2",
        "\\pm 3",
        "a = 2, b = 3",
        "x = 1, y = 2 or x = 3, y = 4",
    ],
)
def test_pair_notations_are_left_to_the_readers(text: str) -> None:
    assert as_latex(text) == text


def test_each_side_on_its_own() -> None:
    assert align("a = 2, b = 3", "(2, 3)") == (as_latex("a = 2, b = 3"), as_latex("(2, 3)"))
    assert align("\\sin 30^\\circ", "\\frac{1}{2}") == ("\\sin (30\\pi/180)", "\\frac{1}{2}")


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        # A count of combinations or permutations, not a point named C or P.
        ("C(10,3)", "\\binom{10}{3}"),
        ("$C(8, 3)$", "\\binom{8}{3}"),
        ("P(10, 3)", "\\frac{10!}{7!}"),
        ("C(3,3)", "\\binom{3}{3}"),
    ],
)
def test_a_count_is_written_as_its_value(text: str, latex: str) -> None:
    assert as_latex(text) == latex


@pytest.mark.parametrize(
    "text",
    [
        "A(1,2)",  # a point's name: the reader drops it
        "C(3,10)",  # no count chooses more than it has
        "P(-1, 2)",
        "C(1.5, 1)",
        "Q(10, 3)",
        "C(1000, 3)",  # too large to write out
        "C(10, 3) + 1",
    ],
)
def test_no_count(text: str) -> None:
    assert as_latex(text) == text


_PIECES = st.sampled_from(
    ["sqrt", "sin", "x", "(", ")", "2", "3.5", " ", "pi", "√", "²", "π", "½", "°", "^\\circ",
     "C", ",", "=", "\\frac", "{", "}", "dy", "dx", "'", "at least ", "$", "\\text{", "[", "]"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(_PIECES, max_size=12).map("".join)))
def test_the_front_end_hands_on_the_tokens_its_latex_scans_into(text: str) -> None:
    """The reader reads the front end's tokens as they are (``reading.read_tokens``): they
    are what a scan of the LaTeX text gives, so the symbolic engine, given the text, sees
    the same answer."""
    tokens = latex_tokens(text)
    assert tokens == tokenize(join(tokens))
    assert as_latex(text) == join(tokens)
