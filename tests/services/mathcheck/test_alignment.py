"""The readers' front end (``alignment.py``), in-process: Unicode and plain-text
mathematics as LaTeX tokens, mathematics said in words as notation, and each answer written
as LaTeX on its own, whatever the other side of the pair is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.mathcheck.alignment import (
    align,
    as_latex,
    latex_from_unicode,
    latex_tokens,
    math_from_phrase,
    phrase_notation,
    plain_text_as_latex,
    unicode_as_latex,
)
from services.mathcheck.latex_tokens import Kind, Token, join, tokenize
from services.mathcheck.pool import SymbolicPool
from tests.services.mathcheck.checking import expected, outcomes_both_ways


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("x² + 7x", "x^{2} + 7x"),
        ("10⁻⁶", "10^{-6}"),
        ("2¹⁰", "2^{10}"),
        ("a₁", "a_{1}"),
        ("x₁₂", "x_{12}"),  # a run of subscripts is one subscript
        ("3½", "3\\frac{1}{2}"),
        ("¾", "\\frac{3}{4}"),
        ("−1.5", "-1.5"),
        ("2 × 3 ÷ 4", "2 \\times  3 \\div  4"),
        ("x ≤ 2", "x \\le  2"),  # relations are spelled as the vocabulary spells them
        ("a ≠ b", "a \\ne  b"),
        ("θ", "\\theta "),
        ("α+β", "\\alpha +\\beta "),
        ("ℝ", "\\mathbb{R}"),
        ("x ∈ ℝ ∪ ∅", "x \\in  \\mathbb{R} \\cup  \\emptyset "),
        ("∛8", "cbrt8"),  # a call the plain-text rules read
        ("5∶3", "5:3"),
        ("x ⩾ 2", "x \\ge  2"),
        ("1⁄2", "1/2"),
        ("≈3.14", "\\approx 3.14"),
        ("{x ∣ x > 0}", "{x \\mid  x > 0}"),
        ("∠ABC", "\\angle ABC"),
        ("±2 ∓ 1", "±2 \\mp  1"),  # "±" is read as a plus-minus as it is
    ],
)
def test_unicode_becomes_latex(text: str, latex: str) -> None:
    assert latex_from_unicode(text) == latex


def test_ascii_passes_unicode_rewriting_unchanged() -> None:
    assert latex_from_unicode("\\frac{1}{2} + x^2") == "\\frac{1}{2} + x^2"


def test_each_symbol_becomes_the_tokens_of_its_command() -> None:
    assert unicode_as_latex(tokenize("2π")) == [
        Token(Kind.DIGITS, "2"),
        Token(Kind.COMMAND, "\\pi"),
        Token(Kind.SPACE, " "),
    ]
    assert unicode_as_latex(tokenize("x²")) == tokenize("x^{2}")


def latex_from_plain_text(text: str) -> str:
    """The LaTeX text of ``text``'s tokens as the plain-text rules leave them."""
    return join(plain_text_as_latex(tokenize(text)))


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("sqrt(3)/2", "\\sqrt{3}/2"),
        ("sqrt 2", "\\sqrt{2}"),
        ("sqrt(x+1)", "\\sqrt{x+1}"),
        ("2pi", "2\\pi"),
        ("x**2 + 1", "x^2 + 1"),
        ("exp(2)", "e^{2}"),
        ("2^(1/3)", "2^{1/3}"),
        ("ln 2", "\\ln(2)"),
        ("abs(x-1)", "\\left|x-1\\right|"),
        ("(1, infinity)", "(1, \\infty )"),
        ("n factorial", "n!"),
        ("\\sqrt[3]2", "\\sqrt[3]{2}"),
        ("\\lbrace 1 \\rbrace", "\\{ 1 \\}"),
        ("x \\in \\R", "x \\in \\mathbb{R}"),
    ],
)
def test_plain_text_becomes_latex(text: str, latex: str) -> None:
    assert latex_from_plain_text(text) == latex


@pytest.mark.parametrize(
    "text",
    [
        "\\frac{\\sqrt{3}}{2}",
        "spin",
        "cost",
        "\\pi r^2",
        "negative infinity",
        "5 sec",
        # Braces that are a group: an argument, an exponent, an index, one value.
        "x_{1,2}",
        "2^{1,2}",
        "\\text{a, b}",
        "{5}",
        "{1}+{2}",
        # Elements apart at the start of an answer: the list LaTeX shows.
        "{1, 2}",
        "{(1, 2), (3, 4)}",
        "x = {1, 2}",
        # A bar first is an absolute value.
        "{|x|}",
        # A slash that is no coefficient's: no space, in an exponent, a joint, a decimal.
        "1/2x",
        "x^4/3 y",
        "1/2 and 3/4",
        "2.5/2 x",
        "1/2 \\cdot x",
    ],
)
def test_latex_and_words_pass_unchanged(text: str) -> None:
    assert latex_from_plain_text(text) == text


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("]0, 1[", "(0, 1)"),
        ("[0, 1[", "[0, 1)"),
        ("\\frac\\pi3", "\\frac{\\pi}{3}"),
        ("\\dfrac12", "\\dfrac{1}{2}"),
        ("\\text{lcm}(4, 6)", "\\operatorname{lcm}(4, 6)"),
        ("gcd (4, 6)", "\\operatorname{gcd} (4, 6)"),
        ("sin x + cos(2x)", "\\sin(x) + \\cos(2x)"),
        ("minus infinity", "minus infinity"),
        # A root sign is a call whatever stands before it, and takes one letter as a digit.
        ("x√2", "x\\sqrt{2}"),
        ("√x + 1", "\\sqrt{x} + 1"),
        ("2√(x+1)", "2\\sqrt{x+1}"),
        # Infinity in any case, alone or not.
        ("Infinity", "\\infty"),
        ("(-INF, 2)", "(-\\infty , 2)"),
        # One character of a run: the rest of the run stays.
        ("\\frac123", "\\frac{1}{2}3"),
        ("\\sqrt [3] 27", "\\sqrt[3]{2}7"),
        ("sin xY", "\\sin(x)Y"),
        ("sqrt( pi )", "\\sqrt{\\pi}"),
        # Whole numbers over a slash, then a space and a factor: a coefficient.
        ("1/2 x^2 + C", "\\frac{1}{2} x^2 + C"),
        ("4/3 \\pi r^3", "\\frac{4}{3} \\pi r^3"),
        ("y = 3/4 (x - 1)", "y = \\frac{3}{4} (x - 1)"),
        # A set in bare braces, where a set stands.
        ("x \\in {1, 2}", "x \\in \\{1, 2\\}"),
        ("A \\cup {3, 4}", "A \\cup \\{3, 4\\}"),
        ("x \\in {1; 2}", "x \\in \\{1; 2\\}"),
        ("{x | x > 0}", "\\{x | x > 0\\}"),
        ("x \\in {(1, 2), (3, 4)}", "x \\in \\{(1, 2), (3, 4)\\}"),
        ("{x : x > 0}", "\\{x : x > 0\\}"),
    ],
)  # fmt: skip
def test_more_notations_become_latex(text: str, latex: str) -> None:
    assert latex_from_plain_text(text) == latex


_PLAIN_TEXT_PIECES = st.sampled_from(
    ["sqrt", "sin", "x", "(", ")", "2", "3.5", " ", "pi", "inf", "**", "^(", " factorial", "\\",
     "\\sqrt", "[3]", "[", "]", "\\frac", "lcm", "gcd", "\\text{", "}", "{", "\\R", ",", "²"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(_PLAIN_TEXT_PIECES, max_size=12).map("".join)))
def test_any_text_is_read_into_the_tokens_its_latex_scans_into(text: str) -> None:
    tokens = plain_text_as_latex(tokenize(text))
    assert tokens == tokenize(join(tokens))


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        # a derivative's name carries no value
        ("\\frac{dy}{dx} = 2x", " 2x"),
        # a degree sign under a trigonometric function
        ("\\sin 30^\\circ", "\\sin (30\\pi/180)"),
        ("2(\\cos 60^\\circ + i \\sin 60^\\circ)", "2(\\cos (60\\pi/180)+ i \\sin (60\\pi/180))"),
        # a text escaped twice (every backslash doubled, a quote escaped): as written once
        (r"\\left( 3, \\frac{\\pi}{2} \\right)", r"\left( 3, \frac{\pi}{2} \right)"),
        (r"\\sqrt{2}\\,\\text{cm}", r"\sqrt{2}\,\text{cm}"),
        (r"\"$12$ and $13$\"", '"$12$ and $13$"'),
        (r"\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}"),
    ],
)
def test_written_as_latex(text: str, latex: str) -> None:
    assert as_latex(text) == latex


@pytest.mark.parametrize(
    "text",
    [
        # Row breaks in LaTeX written once, and a doubled backslash before no command's name.
        r"1 & 2 \\ 3 & 4",
        r"\begin{pmatrix}1\\2\end{pmatrix}",
        r"\frac{1}{2} \\ x",
        r"a \\\\ b",
        r"\\{1, 2\\}",
    ],
)
def test_latex_written_once_keeps_its_row_breaks(text: str) -> None:
    assert as_latex(text) == text


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


@pytest.fixture(scope="module")
def pool() -> Iterator[SymbolicPool]:
    symbolic = SymbolicPool(workers=1, timeout_s=10.0, memory_mb=2048)
    yield symbolic
    symbolic.close()


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("x is greater than 2", "x > 2"),
        ("y is between 0 and 1", "0 < y < 1"),
        ("greater than 2", "(2, \\infty)"),
        ("all real numbers less than -1", "(-\\infty, -1)"),
        ("t is at least 5", "t \\ge 5"),
        ("no more than 3", "(-\\infty, 3]"),
        ("between -1 and 1", "(-1, 1)"),
        ("between -1 and 1 inclusive", "[-1, 1]"),
        ("from 0 to 2.5", "[0, 2.5]"),
        ("all real numbers except 3", "x \\ne 3"),
        ("approximately 1.4142", "1.4142"),
        ("\\approx 3.14", "3.14"),
        ("a 1/4 probability", "1/4"),
        ("25\\% chance", "25\\%"),
        # In a text font, as a boxed answer writes words.
        ("\\text{at least } 7", "[7, \\infty)"),
        ("\\text{at least $7$ boxes}", "[7, \\infty)"),
        ("\\textbf{exactly} 4", "x = 4"),
        ("\\text{between } -1 \\text{ and } 1", "(-1, 1)"),
        # The grammar's other branches.
        ("X must be at most 3", "X \\le 3"),
        ("values of n that are more than 4", "(4, \\infty)"),
        ("all real numbers other than -2", "x \\ne -2"),
        ("x is from 1 to 3", "1 \\le x \\le 3"),
        ("t is between 1 and 2, inclusive", "1 \\le t \\le 2"),
        ("the line y = 2x", "y = 2x"),
        ("The Point (1, 2)", "(1, 2)"),
        ("approx. 2.72", "2.72"),
        ("An 80\\% likelihood", "80\\%"),
        # A bound, then the side of it the values lie on.
        ("7 or less", "(-\\infty, 7]"),
        ("5 or more", "[5, \\infty)"),
        ("$12$ or fewer", "(-\\infty, 12]"),
        ("n is 3 or greater", "n \\ge 3"),
        ("\\text{5 or more}", "[5, \\infty)"),
    ],
)
def test_a_phrase_becomes_its_notation(text: str, notation: str) -> None:
    assert math_from_phrase(text) == notation
    assert phrase_notation(tokenize(text)) == tokenize(notation)


@pytest.mark.parametrize(
    "text",
    [
        "the answer is at least 5 apples",
        "7 or 8",
        "7 or less apples",
        "x or more",
        "x > 2",
        "5",
        "at least five",
        "between friends",
        "",
        "\\text{at least five}",
        "\\text{No}",
        # A hedge is a whole word: "approximation" is no "approx" before "imation".
        "approximation",
        "\\approxeq 3",
        # A phrase is short: a whole completion that ends with "chance" is none.
        "We count the cases one by one. " * 10 + "So there is a 1/4 chance",
        # "from ... to" is written in small letters.
        "From 0 to 2",
        # What follows the bound is one word, not a joint and another bound.
        "at least 7 or 8",
    ],
)
def test_anything_else_is_left_as_it_is(text: str) -> None:
    assert math_from_phrase(text) == text
    assert phrase_notation(tokenize(text)) is None


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("n \\geq 7", "\\text{at least } 7", True),
        ("n \\geq 7", "\\text{at least } 8", False),
        ("n \\geq 7", "\\text{at most } 7", False),
        ("n \\geq 7", "\\text{more than } 7", False),
        ("[2, \\infty)", "\\text{at least } 2", True),
        ("7", "\\text{exactly } 7", True),
        ("7", "\\text{at least } 7", False),
        ("t \\ge 7", "\\text{at least } 7", True),  # no unknown named: any one
        ("-1 < t < 1", "\\text{between } -1 \\text{ and } 1", True),
        ("-1 \\le t \\le 1", "\\text{between } -1 \\text{ and } 1", False),
    ],
)
def test_a_phrase_in_a_text_font_is_the_relation_it_says(
    pool: SymbolicPool, reference: str, answer: str, equal: bool
) -> None:
    assert outcomes_both_ways(pool, reference, answer) == expected(equal)
