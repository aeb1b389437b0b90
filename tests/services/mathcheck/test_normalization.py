from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3, math_corpus
from services.mathcheck.comparison import Method, Verdict, equal
from services.mathcheck.extraction import ExtractionPolicy, extract_answer
from services.mathcheck.latex_tokens import join, tokenize
from services.mathcheck.normalization import (
    answer_tokens,
    canonical_tokens,
    normalize_answer,
    numbers_match,
    parse_number,
    without_note,
)
from services.mathcheck.reading import read_normalized


def quick_verdict(reference_norm: str, answer_norm: str) -> Verdict | None:
    """The typed verdict on two normalised answers; None where the symbolic engine decides."""
    return equal(read_normalized(tokenize(reference_norm)), read_normalized(tokenize(answer_norm)))


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("$\\dfrac{1}{2}$", "\\frac{1}{2}"),
        ("\\left( 1, 2 \\right)", "(1, 2)"),
        ("(1 ,2)", "(1,2)"),
        ("32, 349", "32, 349"),  # a list of two numbers stays one
        ("1,000.99 €", "1,000.99"),
        ("x = 3", "3"),
        ("5\\text{ cm}", "5"),
        ("30^\\circ", "30"),
        ("30°", "30"),
        ("\\$18", "18"),
        ("18 dollars", "18"),
        ("\\text{(B)}", "B"),
        ("\\text{Monday}", "monday"),
        ("1{,}000", "1,000"),
        ("{\\bf 3}", "3"),  # an old font switch only presents
        ("{\\it x} + 1", "x+1"),
        ("\\bfx", "\\bfx"),  # no switch: a command of its own
        ("2 1/2", "2\\frac{1}{2}"),
        ("\\varnothing", "\\emptyset"),
        ("50\\%", "50%"),
        # A command keeps the space before letters, which would run into its name.
        ("2 \\pi r", "2\\pi r"),
        ("\\sin x + \\cos x", "\\sin x+\\cos x"),
        ("2 \\le x", "2\\le x"),
        ("\\pi (r + 1)", "\\pi(r+1)"),
        ("\\sinx", "\\sinx"),  # written run together: another command's name
    ],
)
def test_normalize_answer(raw: str, normalized: str) -> None:
    assert normalize_answer(raw) == normalized


@pytest.mark.parametrize(
    ("text", "value", "places", "percent"),
    [
        ("1,000,000", Fraction(1_000_000), None, False),
        ("1,22", Fraction(122, 100), 2, False),  # a decimal comma
        ("0,111", Fraction(111, 1000), 3, False),  # no thousands group starts with 0
        ("1,00", Fraction(1), 2, False),
        ("-0.50", Fraction(-1, 2), 2, False),
        (".5", Fraction(1, 2), 1, False),
        ("3/4", Fraction(3, 4), None, False),
        ("\\frac{-1}{2}", Fraction(-1, 2), None, False),
        ("-\\frac{1}{2}", Fraction(-1, 2), None, False),
        ("\\frac34", Fraction(3, 4), None, False),
        ("2\\frac{1}{2}", Fraction(5, 2), None, False),
        ("1.5e3", Fraction(1500), None, False),
        ("1.5\\times10^{3}", Fraction(1500), None, False),
        ("2\\cdot10^{-7}", Fraction(2, 10**7), None, False),
        ("12.5%", Fraction(25, 2), 1, True),
        ("0.\\overline{3}", Fraction(1, 3), None, False),
        ("0.1\\overline{6}", Fraction(1, 6), None, False),
    ],
)
def test_parse_number(text: str, value: Fraction, places: int | None, percent: bool) -> None:
    parsed = parse_number(text)
    assert parsed is not None
    assert (parsed.value, parsed.decimal_places, parsed.percent) == (value, places, percent)


@pytest.mark.parametrize("text", ["x", "1/0", "1e999999", "32, 349", "1,2,3", "2 -1/2", "", "."])
def test_parse_number_refuses(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("1/3", "0.333333", True),
        ("1/3", "0.3333", True),  # 1/3 rounded to four places
        ("8/3", "2.6667", True),
        ("1/3", "0.333", True),
        ("1/3", "0.33", False),  # two places are too few to stand for 1/3
        ("1/3", "0.3334", False),  # not 1/3 rounded
        ("1/999", "0.001", False),  # one significant digit
        ("2/3", "0.666667", True),
        ("50%", "50", True),
        ("50%", "0.5", True),
        ("50%", "5", False),
        ("10^{-7}", "2\\cdot10^{-7}", False),
        ("0.000000", "1e-30", False),
    ],
)
def test_numbers_match(reference: str, answer: str, equal: bool) -> None:
    ref, ans = parse_number(reference), parse_number(answer)
    assert ref is not None and ans is not None
    assert numbers_match(ref, ans) is equal


def test_quick_verdict_leaves_symbolic_work_undecided() -> None:
    assert quick_verdict("\\sin^2x", "1-\\cos^2x") is None  # no parentheses: for sympy
    probed = quick_verdict("(x+1)^2", "x^2+2x+1")  # the numeric probe's
    assert probed is not None and probed.equal and probed.method is Method.NUMERIC
    assert quick_verdict("east", "west") == (quick_verdict("east", "west"))
    verdict = quick_verdict("east", "west")
    assert verdict is not None and not verdict.equal and verdict.method is Method.STRING
    numeric = quick_verdict("1,000", "1000")
    assert numeric is not None and numeric.equal and numeric.method is Method.NUMERIC


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        ("x^{2}-10x+24", "24-10x+x^{2}", True),
        ("2-3i", "-3i+2", True),
        # Not reorderings: the numeric probe finds them different.
        ("x^2-y", "y-x^2", False),
        ("x^2-1", "1-x^2", False),
        # A split sign inside scientific notation is unsafe; the probe does not read it.
        ("1e-3+x", "x+1e-3", None),
    ],
)
def test_reordered_sums_are_decided_without_sympy(
    reference: str, answer: str, expected: bool | None
) -> None:
    verdict = quick_verdict(reference, answer)
    assert (verdict.equal if verdict else None) is expected


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("\\{1,2,3\\}", "\\{3,1,2,2\\}", True),
        ("\\{1,2\\}", "\\{1,2,3\\}", False),
        ("(1,2)", "(2,1)", False),
        ("[-\\frac{13}{5},\\infty)", "[-2.6,+\\infty]", True),
        ("(0,1]", "[0,1]", False),
        (
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "\\begin{pmatrix}1&3\\\\2&4\\end{pmatrix}",
            False,
        ),
    ],
)
def test_numeric_structures_are_decided_exactly(reference: str, answer: str, equal: bool) -> None:
    verdict = quick_verdict(reference, answer)
    assert verdict is not None and verdict.method is Method.STRUCTURAL
    assert verdict.equal is equal


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("x \\geq 5", "5 \\le x", True),  # relations are the intervals they describe
        ("x \\geq 5", "[5, \\infty)", True),
        ("x \\geq 5", "x > 5", False),
        ("-2 \\le x \\le 7", "x \\in [-2,7]", True),
        ("-2 \\le x \\le 7", "(-2, 7]", False),
        ("(3/5, 8/3]", "(0.6, 2.6667]", True),  # rounded to four places
        ("(3/5, 8/3]", "(0.6, 2.66]", False),
        ("\\{-1, 1, 3\\}", "3, 1, -1", True),  # a bare list of solutions is a set
        ("(9, 3), (6, 3), (54, 5)", "(54, 5), (9, 3), (6, 3)", True),
        ("(9, 3), (6, 3), (54, 5)", "(9, 3), (3, 6), (54, 5)", False),
        ("\\begin{pmatrix}1\\\\2\\end{pmatrix}", "(1, 2)", True),  # a vector is a tuple
        ("\\begin{pmatrix}1\\\\2\\end{pmatrix}", "(2, 1)", False),
        ("2", "2, 3", False),  # a number against a list of solutions
        ("32349", "32, 349", False),
        ("7", "7, 7", True),
    ],
)
def test_relations_lists_and_vectors_are_decided_exactly(
    reference: str, answer: str, equal: bool
) -> None:
    verdict = quick_verdict(normalize_answer(reference), normalize_answer(answer))
    assert verdict is not None and verdict.method is Method.STRUCTURAL
    assert verdict.equal is equal


@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        ("x > 2", "y > 2"),  # different unknowns: the symbolic engine decides
        ("ab", "ba"),  # maybe one product written twice
        ("\\pm 3", "3, -3"),
    ],
)
def test_undecidable_without_the_symbolic_engine(reference: str, answer: str) -> None:
    assert quick_verdict(normalize_answer(reference), normalize_answer(answer)) is None


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("seven", "7", True),
        ("A", "(B)", False),
        ("x \\neq 1", "x != 1", True),
        ("x \\leq 4", "x ≤ 4", True),
        ("k = 45, n = 2", "k=45, n=2", True),
        ("2, 4", "x = 2 \\text{ or } x = 4", True),
        ("2, 4", "x = 2, x = 5", False),
        ("(x, y, z) = (1, 2, 3)", "(1, 2, 3)", True),
    ],
)
def test_spellings_normalise_alike(reference: str, answer: str, equal: bool) -> None:
    verdict = quick_verdict(normalize_answer(reference), normalize_answer(answer))
    assert verdict is not None and verdict.equal is equal


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80), st.text(max_size=80))
def test_fast_path_never_raises_and_is_deterministic(a: str, b: str) -> None:
    first = quick_verdict(normalize_answer(a), normalize_answer(b))
    assert first == quick_verdict(normalize_answer(a), normalize_answer(b))
    if a.strip() and normalize_answer(a) == normalize_answer(b):
        assert first is not None and first.equal


@settings(max_examples=200, deadline=None)
@given(st.fractions(max_denominator=10**6), st.integers(1, 1000))
def test_equal_fractions_in_any_notation_match(value: Fraction, scale: int) -> None:
    plain = f"{value.numerator}/{value.denominator}"
    unreduced = f"\\frac{{{value.numerator * scale}}}{{{value.denominator * scale}}}"
    left, right = parse_number(plain), parse_number(unreduced)
    assert left is not None and right is not None and numbers_match(left, right)
    if value != 0:
        off = parse_number(f"{value.numerator + 1}/{value.denominator}")
        assert off is not None and not numbers_match(left, off)


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


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        # A digit after "_" or "^" is one index: the number after it is the argument.
        ("\\log_2 3", "\\log_{2}3"),
        ("\\log_{2} 3", "\\log_{2}3"),
        ("\\log_3 9, \\log_2 8", "\\log_{3}9,\\log_{2}8"),
        ("x^2 3", "x^{2}3"),
        ("10 24", "10, 24"),  # two numbers
        ("12 345", "12345"),  # thousands
    ],
)
def test_an_index_keeps_its_argument(raw: str, normalized: str) -> None:
    assert normalize_answer(raw) == normalized


def test_a_logarithm_is_not_a_list_of_its_base_and_argument() -> None:
    written = normalize_answer("\\log_2 3")
    assert written != normalize_answer("\\log_2, 3") and written != normalize_answer("3, \\log_2")


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [("e", "e"), ("\\mathrm{e}", "e"), ("E", "E"), ("(e)", "E"), ("option e", "E"), ("a", "A")],
)
def test_a_lone_lowercase_e_is_eulers_number_not_an_option(raw: str, normalized: str) -> None:
    assert normalize_answer(raw) == normalized


def test_the_canonical_tokens_scan_back_into_themselves() -> None:
    """The readers of a normalised answer read its canonical tokens instead of scanning its
    canonical text: the two must be the same tokens, for every answer of the corpora."""
    texts = {
        text
        for corpus in (math_corpus, bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3)
        for case in corpus.CASES
        for text in (case.reference, extract_answer(case.answer, ExtractionPolicy.LENIENT).answer)
        if text is not None
    }
    for text in texts:
        canonical = canonical_tokens(answer_tokens(text))
        assert canonical == tokenize(join(canonical)), text
        assert join(canonical) == normalize_answer(text), text
