"""Each reader: the typed value an answer is read as; ratios in lowest terms."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from services.mathcheck import latex_tokens, reading
from services.mathcheck.answer_types import (
    Angle,
    Assignment,
    Based,
    Choice,
    Expr,
    Groups,
    Interval,
    Labelled,
    Matrix,
    Named,
    Number,
    Numbers,
    Options,
    PlusMinus,
    Quantity,
    Relation,
    Roman,
    Seq,
    Set,
    Union,
    Word,
)
from services.mathcheck.latex_tokens import answer_tokens, tokenize
from services.mathcheck.normalization import normalize_answer
from services.mathcheck.reading import read, read_normalized, read_ratio


@pytest.mark.parametrize(
    ("text", "value", "places", "percent"),
    [
        ("42", Fraction(42), None, False),
        ("$\\frac{3}{4}$", Fraction(3, 4), None, False),
        ("1,000.5", Fraction(2001, 2), 1, False),
        ("0,111", Fraction(111, 1000), 3, False),
        ("2.5\\%", Fraction(5, 2), 1, True),
        ("seven", Fraction(7), None, False),
        ("3 thousand", Fraction(3000), None, False),
        ("5 apples", Fraction(5), None, False),  # a unit of no known kind is decoration
        ("14,916", Fraction(14916), None, False),
        ("14{,}916", Fraction(14916), None, False),  # a thousands separator in braces
        ("$14{,}916$", Fraction(14916), None, False),
    ],
)
def test_plain_numbers_read_exactly(
    text: str, value: Fraction, places: int | None, percent: bool
) -> None:
    number = read(text)
    assert isinstance(number, Number)
    assert number.parsed.value == value
    assert number.parsed.decimal_places == places
    assert number.parsed.percent is percent


def test_a_thousands_separator_in_braces_reads_as_the_number_without_it() -> None:
    braced, plain = read("14{,}916"), read("14,916")
    assert isinstance(braced, Number) and isinstance(plain, Number)
    assert braced.parsed == plain.parsed
    assert braced.parsed.value == Fraction(14916)


def test_a_time_of_day_is_no_ratio_in_lowest_terms() -> None:
    assert read("20:34") != read("10:17")
    assert read("8:34 p.m.") == read("20:34")
    assert read("2:4") == read("1:2")


def test_a_quantity_keeps_its_unit() -> None:
    quantity = read("90 minutes")
    assert isinstance(quantity, Quantity)
    assert (quantity.value, quantity.kind, quantity.factor) == (Fraction(90), "time", Fraction(60))
    assert quantity.canonical != read("90 seconds").canonical


@pytest.mark.parametrize(
    ("text", "name", "value_type"),
    [
        ("x = 3", "x", Number),
        ("y = \\frac{\\pi}{2}", "y", Expr),
        ("t = 5 s", "t", Quantity),
        ("$k = 0.5$", "k", Number),
    ],
)
def test_one_unknown_and_its_value(text: str, name: str, value_type: type) -> None:
    assignment = read(text)
    assert isinstance(assignment, Assignment)
    assert assignment.name == name
    assert isinstance(assignment.value, value_type)


@pytest.mark.parametrize(
    "text",
    [
        "x = 2 \\text{ or } x = 3",  # several values of one unknown
        "x = 2 or x = 3",
        "a = 1, b = 2",  # several unknowns
        "P(x) = x^2",  # a function's name is left to normalisation
        "x^2 = 4",
    ],
)
def test_lists_and_equations_are_no_single_assignment(text: str) -> None:
    assert not isinstance(read(text), Assignment)


@pytest.mark.parametrize(("text", "letter"), [("(B)", "B"), ("Option c", "C"), ("D", "D")])
def test_option_letters(text: str, letter: str) -> None:
    choice = read(text)
    assert isinstance(choice, Choice) and choice.canonical == letter


@pytest.mark.parametrize(
    ("text", "letters", "separated"),
    [("A and C", "AC", True), ("(A), (C)", "AC", True), ("AC", "AC", False), ("B & D", "BD", True)],
)
def test_options_chosen(text: str, letters: str, separated: bool) -> None:
    options = read(text)
    assert isinstance(options, Options)
    assert options.letters == frozenset(letters) and options.separated is separated


def test_letters_together_are_options_and_what_else_they_read_as() -> None:
    letters = read("CD")
    assert isinstance(letters, Options) and not letters.separated
    assert isinstance(letters.written, Roman) and letters.written.value == 400


@pytest.mark.parametrize(
    ("text", "value"),
    [("XIV", 14), ("$MCMXCIV$", 1994), ("XL", 40), ("\\text{XL}", 40), ("\\mathrm{XIV}", 14)],
)
def test_roman_numerals_keep_their_letters(text: str, value: int) -> None:
    roman = read(text)
    assert isinstance(roman, Roman) and roman.value == value
    assert isinstance(roman.written, Word)


@pytest.mark.parametrize("text", ["V", "IIII", "XM", "VX"])
def test_one_letter_and_malformed_numerals_are_not_roman(text: str) -> None:
    assert not isinstance(read(text), Roman)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("East", "east"),
        ("\\text{odd}", "odd"),
        ("No, it is not possible", "no"),  # a yes or a no before its reason
        ("\\text{Yes}: 91 = 7 \\cdot 13", "yes"),
        ("yes.", "yes"),
    ],
)
def test_words(text: str, words: str) -> None:
    word = read(text)
    assert isinstance(word, Word) and word.canonical == words


def test_a_union_of_intervals() -> None:
    union = read("(-\\infty, 2) \\cup [3, \\infty)")
    assert isinstance(union, Union) and [part.opening for part in union.parts] == ["(", "["]


@pytest.mark.parametrize(
    ("text", "interval"),
    [
        ("x<1 \\text{ or } x>3", "(-\\infty, 1) \\cup (3, \\infty)"),
        ("x > 3 \\text{ or } x < 1", "(-\\infty, 1) \\cup (3, \\infty)"),
        ("x \\le -1 or x \\ge 3", "(-\\infty, -1] \\cup [3, \\infty)"),
        ("$x \\leq -1 \\quad\\text{or}\\quad x \\geq 3$", "(-\\infty, -1] \\cup [3, \\infty)"),
        ("x < -2 \\lor 0 \\le x < 1", "(-\\infty, -2) \\cup [0, 1)"),
        # Listed: each is one of the answer's values.
        ("x<-2, x>2", "(-\\infty, -2) \\cup (2, \\infty)"),
        ("x \\in (0, 1), x > 5", "(0, 1) \\cup (5, \\infty)"),
        ("3 > x > 1, x \\le -1", "(-\\infty, -1] \\cup (1, 3)"),
    ],
)
def test_inequalities_in_one_unknown_joined_by_or_are_a_union(text: str, interval: str) -> None:
    union, written = read(text), read(interval)
    assert isinstance(union, Union) and isinstance(written, Union)
    assert sorted(map(repr, union.parts)) == sorted(map(repr, written.parts))


def test_closed_and_open_ends_of_a_union_of_inequalities_differ() -> None:
    union, written = read("x<-1 \\text{ or } x>1"), read("(-\\infty,-1]\\cup[1,\\infty)")
    assert isinstance(union, Union) and isinstance(written, Union)
    assert sorted(map(repr, union.parts)) != sorted(map(repr, written.parts))


@pytest.mark.parametrize(
    "text",
    [
        "x<1 or y>3",
        "x=1 or x=2",
        "x<1 or x>3 or x=5",
        "red or blue",
        "x < 1 or 5",
        "x < 1, y > 3",
        "x < 1, 5",
    ],
)
def test_no_union_of_inequalities(text: str) -> None:
    assert not isinstance(read(text), Union)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("\\log_2 3", "\\log_{2}3"), ("\\log_{2} 3", "\\log_{2}3"), ("1+\\log_2 5", "1+\\log_{2}5")],
)
def test_a_function_with_an_index_and_its_argument_is_one_expression(
    text: str, canonical: str
) -> None:
    expression = read(text)
    assert isinstance(expression, Expr) and expression.canonical == canonical


@pytest.mark.parametrize("text", ["e", "\\mathrm{e}", "$e$"])
def test_a_lone_lowercase_e_is_eulers_number(text: str) -> None:
    assert read(text) == Expr("e")


@pytest.mark.parametrize(("text", "letter"), [("E", "E"), ("(e)", "E"), ("a", "A"), ("(d)", "D")])
def test_other_letters_and_a_named_e_are_options(text: str, letter: str) -> None:
    assert read(text) == Choice(letter)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("1, 2, 3", {1, 2, 3}),
        ("\\{3, 1, 1\\}", {1, 3}),
        ("(9, 3), (6, 3)", {(9, 3), (6, 3)}),
    ],
)
def test_a_set_or_list_of_exact_numbers(text: str, values: set[object]) -> None:
    numbers = read(text)
    assert isinstance(numbers, Numbers) and numbers.values.values == values


@pytest.mark.parametrize("text", ["x", "x^2+1", "\\sqrt{2}", "x \\ge \\sqrt{5}"])
def test_everything_else_is_an_expression(text: str) -> None:
    assert isinstance(read(text), Expr)


def test_a_normalised_string_reads_as_its_type() -> None:
    assert isinstance(read_normalized(tokenize("3/4")), Number)
    assert isinstance(read_normalized(tokenize("B")), Choice)
    assert isinstance(read_normalized(tokenize("west")), Word)
    assert isinstance(read_normalized(tokenize("x+1")), Expr)


@pytest.mark.parametrize("text", ["", " ", "=", "x =", "$$", "\\frac{", "%", "1/0"])
def test_bad_input_reads_as_something(text: str) -> None:
    assert read(text).canonical is not None


def test_collections_of_expressions_read_entry_by_entry() -> None:
    interval = read("(\\sqrt{2}, \\pi]")
    assert isinstance(interval, Seq) and (interval.opening, interval.closing) == ("(", "]")
    assert [type(item) for item in interval.items] == [Expr, Expr]
    braced = read("\\{1 \\pm \\sqrt{5}, -2\\}")
    assert isinstance(braced, Set) and isinstance(braced.items[1], Number)
    listed = read("\\frac{1+\\sqrt5}{2}, \\frac{1-\\sqrt5}{2}")
    assert isinstance(listed, Set) and len(listed.items) == 2


@pytest.mark.parametrize("text", ["(1, 2)", "\\{1, 2\\}", "1, 2", "(x+1)(x-1)", "f(x, y)"])
def test_plain_number_collections_and_products_are_not_read_as_collections(text: str) -> None:
    # Plain numbers are compared exactly by structures.py; a product is an expression.
    assert not isinstance(read(text), Seq | Set)


@pytest.mark.parametrize(
    ("text", "letter", "value"),
    [
        ("(C) 12", "C", "12"),
        ("\\text{(A)}\\ 5", "A", "5"),
        ("B. 7", "B", "7"),
        ("(D): 2\\sqrt{3}", "D", "2\\sqrt{3}"),
        ("C: x^2+y^2=1", "C", "x^2+y^2=1"),
    ],
)
def test_an_option_with_its_value(text: str, letter: str, value: str) -> None:
    labelled = read(text)
    assert isinstance(labelled, Labelled)
    assert (labelled.letter, labelled.value.canonical) == (letter, value)


@pytest.mark.parametrize("text", ["\\text{(C)}", "(C)", "(A) 1 (B) 2", "F) 3"])
def test_a_letter_alone_or_several_labels_are_no_option_with_a_value(text: str) -> None:
    assert not isinstance(read(text), Labelled)


@pytest.mark.parametrize(
    ("text", "digits", "value"),
    [
        ("1011_2", "1011", 11),
        ("A3_{16}", "A3", 163),
        ("27_8", "27", 23),
        ("\\text{FF}_{16}", "FF", 255),  # a font around the digits is presentation
        ("\\mathrm{101}_2", "101", 5),
    ],
)
def test_a_number_in_a_base(text: str, digits: str, value: int) -> None:
    based = read(text)
    assert isinstance(based, Based) and (based.digits, based.value) == (digits, value)


@pytest.mark.parametrize("text", ["a_{16}", "2011_2", "12_{40}", "x_1"])
def test_a_subscript_that_is_no_base(text: str) -> None:
    # A term of a sequence, a digit the base has not, a base over 36, an index.
    assert not isinstance(read(text), Based)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3\\mathbf{i} - \\mathbf{j} + 2\\mathbf{k}", "(3, -1, 2)"),
        ("2\\hat{i} + 3\\hat{j}", "(2, 3)"),  # no k: in two dimensions
        ("\\hat i + 3 \\hat k", "(1, 0, 3)"),  # an axis left out is 0
        ("-\\vec{i} - 3 \\cdot \\vec{j}", "(-1, -3)"),
        ("\\frac{1}{2}\\mathbf{i} + \\sqrt{3}\\mathbf{j}", "(\\frac{1}{2},\\sqrt{3})"),
    ],
)
def test_a_sum_of_unit_vectors_reads_as_its_components(text: str, canonical: str) -> None:
    assert read(text).canonical == canonical


@pytest.mark.parametrize(
    "text",
    [
        "3\\mathbf{i}",  # one component: a multiple of one vector, as written
        "2\\mathbf{i} + 3\\mathbf{i}",  # an axis twice
        "\\mathbf{i} + 3",  # a term with no unit vector
        "\\mathbf{i}\\mathbf{j}",  # a product
        "3i - j + 2k",  # letters without a vector's font may be anything
    ],
)
def test_other_texts_with_unit_vectors_are_no_vector(text: str) -> None:
    assert not isinstance(read(text), Interval | Seq)


@pytest.mark.parametrize(
    ("text", "both", "written"),
    [
        ("\\pm 3", "+3,-3", Expr),
        (
            "x = \\frac{1 \\pm \\sqrt{5}}{2}",
            "\\frac{1+\\sqrt{5}}{2},\\frac{1-\\sqrt{5}}{2}",
            Assignment,
        ),
        ("-1 ± 2i", "-1+2i,-1-2i", Expr),
    ],
)
def test_a_plus_minus_stands_for_both_values(text: str, both: str, written: type) -> None:
    signed = read(text)
    assert isinstance(signed, PlusMinus)
    assert signed.both.canonical.replace(" ", "") == both
    assert isinstance(signed.written, written)


@pytest.mark.parametrize("text", ["\\pm 3, 4", "1 \\pm 2 \\pm 3", "3 \\mp 1 \\pm 2", "3"])
def test_no_single_plus_minus(text: str) -> None:
    assert not isinstance(read(text), PlusMinus)


@pytest.mark.parametrize(
    ("text", "radians", "written"),
    [
        ("30^\\circ", "\\frac{\\pi}{6}", "30"),
        ("180°", "\\pi", "180"),
        ("45 degrees", "\\frac{\\pi}{4}", "45"),
        ("00^{\\circ}", "0", "00"),
    ],
)
def test_an_angle_in_degrees(text: str, radians: str, written: str) -> None:
    angle = read(text)
    assert isinstance(angle, Angle)
    assert (angle.radians.canonical, angle.written.canonical) == (radians, written)


def test_a_list_of_angles_converts_entry_by_entry() -> None:
    angles = read("30^\\circ, 150^\\circ")
    assert isinstance(angles, Angle) and isinstance(angles.radians, Set)
    assert [item.canonical for item in angles.radians.items] == [
        "\\frac{\\pi}{6}",
        "\\frac{5\\pi}{6}",
    ]


@pytest.mark.parametrize("text", ["30.5^\\circ", "\\frac{\\pi}{6}^\\circ", "30^\\circ, 2", "30"])
def test_no_angle_to_convert(text: str) -> None:
    # A decimal (its rounding), a \\pi already there, an entry without a degree sign.
    assert not isinstance(read(text), Angle)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("a = 2, b = 3", (("a", "2"), ("b", "3"))),
        ("(x, y) = (4, -1)", (("x", "4"), ("y", "-1"))),
        ("x=3 \\text{ and } y=-1", (("x", "3"), ("y", "-1"))),
        ("c = 5, b = 4, a = 3", (("c", "5"), ("b", "4"), ("a", "3"))),  # in the order written
    ],
)
def test_named_values(text: str, values: tuple[tuple[str, str], ...]) -> None:
    """Each name and its value, read (its canonical form here)."""
    named = read(text)
    assert isinstance(named, Named)
    assert tuple((name, value.canonical) for name, value in named.values) == values
    assert all(isinstance(value, Number) for _, value in named.values)


@pytest.mark.parametrize(
    "text", ["x = 1, x = 2", "x_1 = 1, x_2 = 2", "a = 2", "(a, b) = (1, 2, 3)"]
)
def test_roots_of_one_unknown_or_one_value_are_not_named_values(text: str) -> None:
    assert not isinstance(read(text), Named)


def test_solutions_of_a_system() -> None:
    groups = read("x = 1, y = 5 \\text{ or } x = 3, y = 7")
    assert isinstance(groups, Groups)
    written = tuple(
        tuple((name, value.canonical) for name, value in group) for group in groups.groups
    )
    assert written == ((("x", "1"), ("y", "5")), (("x", "3"), ("y", "7")))
    assert not isinstance(read("x = 1, y = 5 or x = 3, z = 7"), Groups)  # other names


@pytest.mark.parametrize(
    ("text", "brackets"),
    [
        ("(0, 1]", ("(", "]")),
        ("[2, \\infty)", ("[", ")")),
        ("(1, 2)", ("(", ")")),  # also a point
        ("(1, 2, 3)", ("(", ")")),  # a tuple
        ("[1, 2, 3]", ("[", "]")),  # a list
    ],
)
def test_an_interval_of_plain_numbers(text: str, brackets: tuple[str, str]) -> None:
    interval = read(text)
    assert isinstance(interval, Interval)
    assert (interval.ends.opening, interval.ends.closing) == brackets
    assert interval.ends.variable is None


@pytest.mark.parametrize(
    ("text", "variable", "brackets"),
    [
        ("x \\ge 5", "x", ("[", ")")),
        ("-1 < t \\le 2", "t", ("(", "]")),
        ("5 > y", "y", ("(", ")")),
        ("x \\in [0, 1)", "x", ("[", ")")),
        # A chain written from the larger end.
        ("3 > x \\ge -2", "x", ("[", ")")),
        ("8 \\ge n \\ge 2", "n", ("[", "]")),
    ],
)
def test_an_inequality_in_one_unknown_says_an_interval(
    text: str, variable: str, brackets: tuple[str, str]
) -> None:
    relation = read(text)
    assert isinstance(relation, Relation) and relation.variable == variable
    ends = relation.interval.ends
    assert (ends.opening, ends.closing) == brackets and ends.variable is None


@pytest.mark.parametrize("text", ["3 > x < 5", "-2 < x > 1", "3 > x > y"])
def test_a_chain_that_turns_says_no_interval(text: str) -> None:
    assert not isinstance(read(text), Relation)


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", [2, 2]),
        ("[[1, 2], [3, 4]]", [2, 2]),
        ("\\begin{pmatrix} 1 \\\\ 2 \\\\ 3 \\end{pmatrix}", [1, 1, 1]),  # a column vector
    ],
)
def test_a_matrix_of_plain_numbers(text: str, shape: list[int]) -> None:
    matrix = read(text)
    assert isinstance(matrix, Matrix) and matrix.cells is not None
    assert [len(row) for row in matrix.cells.rows] == shape
    assert [len(row) for row in matrix.rows] == shape
    assert all(isinstance(entry, Number) for row in matrix.rows for entry in row)


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("\\begin{pmatrix} x + 1 \\\\ 2 \\end{pmatrix}", [[Expr], [Number]]),
        ("\\begin{bmatrix} \\sqrt{2} & 3\\% \\end{bmatrix}", [[Expr, Number]]),
        ("[[x, 1], [2, y]]", [[Expr, Number], [Number, Expr]]),
    ],
)
def test_a_matrix_of_other_entries_reads_each_entry(text: str, kinds: list[list[type]]) -> None:
    matrix = read(text)
    assert isinstance(matrix, Matrix) and matrix.cells is None
    assert [[type(entry) for entry in row] for row in matrix.rows] == kinds


@pytest.mark.parametrize(
    "text",
    [
        "\\begin{pmatrix} 1 & 2 \\\\ 3 \\end{pmatrix}",  # rows of two lengths
        "\\begin{pmatrix} x & \\\\ 3 & 4 \\end{pmatrix}",  # an empty entry
    ],
)
def test_a_ragged_matrix_is_no_matrix(text: str) -> None:
    assert not isinstance(read(text), Matrix)


def _counted_scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the tokenizer scans from now on (its caches and the reader's emptied)."""
    scanned: list[str] = []
    scan = latex_tokens._scan

    def counted(written: str) -> Iterator[latex_tokens.Token]:
        scanned.append(written)
        return scan(written)

    monkeypatch.setattr(latex_tokens, "_scan", counted)
    latex_tokens._tokens.cache_clear()
    reading.read.cache_clear()
    return scanned


@pytest.mark.parametrize(
    "text",
    [
        "\\{1, 2, 3\\}",
        "\\{(1, 2), (3, 4)\\}",
        "(0, 1]",
        "x \\ge 5",
        "-1 < x \\le 2",
        "(-\\infty, 2) \\cup (3, \\infty)",
        "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
        "[[1, 2], [3, 4]]",
        "(\\sqrt{2}, \\pi]",
    ],
)
def test_a_canonical_form_is_read_from_its_tokens_not_scanned_again(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sets, tuples, intervals, relations, unions and matrices are read from the tokens
    normalisation gives: the answer's text is the one text scanned."""
    scanned = _counted_scans(monkeypatch)
    assert not isinstance(read(text), Expr)
    assert scanned == [text]


@pytest.mark.parametrize(
    "text",
    [
        "(C) $x = 12$",
        "a = 2, b = 3",
        "x = 1, y = 2 \\text{ or } x = 3, y = 4",
        "\\frac{3 \\pm \\sqrt{5}}{2}",
        "30^\\circ, 60^\\circ",
        "3\\mathbf{i} - \\mathbf{j}",
        "x < -2 \\text{ or } x > 2",
        "1.5 \\text{ hours}",
        "2:4:6",
        "\\text{A and C}",
        "\\left[ 1, 2 \\right)",
        "g(t) = 3t + 1 \\text{ for some constant } c",
        "(a, b) = (2, 3)",
    ],
)
def test_an_answer_is_scanned_once_and_its_parts_are_read_from_its_tokens(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every reader reads the answer's tokens; none scans the answer's text again."""
    scanned = _counted_scans(monkeypatch)
    read(text)
    assert scanned.count(text) == 1
    # What is scanned again is text a pass rewrote, or a canonical form; never a part
    # of the answer as written.
    assert all(other == text or other not in text for other in scanned)


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("1:2:3", (1, 2, 3)),
        ("2:4:6", (1, 2, 3)),
        ("2 to 3", (2, 3)),
        ("2 \\colon 3", (2, 3)),
        ("1.5:3", (1, 2)),
        ("\\frac{1}{2} : 1", (1, 2)),
        ("$4:6$", (2, 3)),
    ],
)
def test_a_ratio_reads_in_lowest_terms(text: str, terms: tuple[int, ...]) -> None:
    ratio = read_ratio(answer_tokens(text), normalize_answer(text))
    assert ratio is not None and ratio.terms == terms
    assert ratio.canonical == ":".join(map(str, terms))


@pytest.mark.parametrize("text", ["3", "x:y", "0:1", "50%:50%", "1:", ":", "a to b"])
def test_other_texts_are_no_ratio(text: str) -> None:
    assert read_ratio(answer_tokens(text), normalize_answer(text)) is None


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("20:34", (20, 34)),  # not 10:17
        ("$10:20$", (10, 20)),
        ("8:34 p.m.", (20, 34)),  # on the 24-hour clock, as normalisation writes it
        ("20:34:00", (20, 34)),
        ("08:34 \\text{P.M.}", (20, 34)),
        ("3:45", (3, 45)),
        ("10:17", (10, 17)),  # in lowest terms either way
    ],
)
def test_a_time_of_day_keeps_its_terms(text: str, terms: tuple[int, ...]) -> None:
    ratio = read_ratio(answer_tokens(text), normalize_answer(text))
    assert ratio is not None and ratio.terms == terms


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("2:4", (1, 2)),  # one digit after the colon: no time
        ("24:36", (2, 3)),  # no hour
        ("10:60", (1, 6)),  # no minute
        ("100:20", (5, 1)),
        ("2:4:6", (1, 2, 3)),
    ],
)
def test_what_is_no_time_still_reduces(text: str, terms: tuple[int, ...]) -> None:
    ratio = read_ratio(answer_tokens(text), normalize_answer(text))
    assert ratio is not None and ratio.terms == terms
