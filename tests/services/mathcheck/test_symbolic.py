"""The symbolic comparison in-process: the one rule for numbers, and the workers' warm-up set."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.bare_answers import CASES as BARE
from benchmarks.math_corpus import CASES as CORPUS
from services.mathcheck import symbolic
from services.mathcheck.symbolic import _parse, symbolic_equal
from services.mathcheck.warm_up_set import WARM_UP_ANSWERS, WARM_UP_PAIRS
from tests.services.mathcheck.equivalence_cases import CASES as EQUIVALENCE


@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        ("3\\sqrt{2}", "2\\sqrt{3}"),  # sympy's simplify is slow to tell these apart
        ("\\frac{\\sqrt{3}}{2}", "\\frac{\\sqrt{2}}{2}"),
        ("\\pi", "3"),
        ("\\frac{1}{2^{99}}", "\\frac{1}{2^{98}}"),  # equal once rounded to 6 decimals
    ],
)
def test_plain_numbers_apart_are_different(reference: str, answer: str) -> None:
    verdict = symbolic_equal(reference, answer)
    assert not verdict.equal
    assert verdict.detail == "numbers that differ, and not by rounding"


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("\\sqrt{2}", "1.414", True),  # the exact value rounded to the places written
        ("\\pi", "3.1416", True),
        ("\\sqrt{2}", "1.415", False),
        ("\\frac{\\sqrt{3}}{2}", "0.87", False),  # two places are too few to be an answer
    ],
)
def test_a_rounded_decimal_of_a_plain_number(reference: str, answer: str, equal: bool) -> None:
    assert symbolic_equal(reference, answer).equal is equal


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        # Exactly equal, a decimal as the decimal it was written as.
        ("\\frac{1}{2}", "0.5", True),
        ("1.5", "\\frac{3}{2}", True),
        ("0.3", "0.1 + 0.2", True),
        ("\\sqrt{2} + \\sqrt{3}", "\\sqrt{5 + 2\\sqrt{6}}", True),
        # Or the exact value rounded to the decimal's own places, three at least.
        ("\\frac{1}{3}", "0.333333", True),
        ("\\frac{1}{3}", "0.333", True),
        ("\\frac{1}{3}", "0.33", False),
        ("\\pi", "3.14159", True),
        ("\\pi", "3.14", False),  # three significant digits at two places: too few
        ("e", "2.718", True),
        ("\\sqrt{2}", "1.4142135", False),  # cut short, not rounded (1.4142136)
        ("3.1416", "3.14", False),  # two decimals: neither is the other rounded
        ("\\frac{1}{300}", "3.333 \\times 10^{-3}", True),  # places shifted by the power
        ("\\frac{1}{3}", "33.33\\%", True),  # 0.3333, four places
        ("10^{400}", "2.5 \\times 10^{3}", False),  # no places left: no rounding
        # Tiny, huge and negative numbers, compared exactly: no closeness but rounding.
        ("\\frac{1}{2^{99}}", "\\frac{1}{2^{98}}", False),
        ("2^{-100}", "0", False),
        ("\\pi \\cdot 10^{-60}", "0", False),
        ("10^{30}", "10^{30} + 1", False),
        ("10^{60}", "10^{60} + 1", False),  # past the 50 digits numbers are evaluated to
        ("-\\sqrt{2}", "-1.414", True),
        ("-\\sqrt{2}", "1.414", False),
        ("-\\sqrt{2}", "-1.415", False),
        # Complex numbers, part by part.
        ("1 + i", "1.0 + 1.0i", True),
        ("\\sqrt{2} + i", "1.414 + i", True),
        ("\\sqrt{2} + i", "1.41 + i", False),
        ("1 + 2^{-99}i", "1 + 2^{-98}i", False),
    ],
)
def test_numbers_by_the_one_rule(reference: str, answer: str, equal: bool) -> None:
    assert symbolic_equal(reference, answer).equal is equal


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        # Each decimal rounds at its own places: 0.5's one place lends nothing to 1.414,
        # and 1.4 (one place) is no answer for \\sqrt{2}.
        ("(\\frac{1}{2}, \\sqrt{2})", "(0.5, 1.414)", True),
        ("(\\frac{1}{2}, \\sqrt{2})", "(0.5, 1.4)", False),
        ("(\\frac{1}{2}, \\sqrt{2})", "(0.5, 1.41)", False),
        ("(0.5, 1.414)", "(\\frac{1}{2}, \\sqrt{2})", True),
        ("(1.414, 0.5)", "(\\sqrt{2}, \\frac{1}{2})", True),
        ("\\{\\sqrt{2}, \\frac{1}{2}\\}", "\\{0.5, 1.414\\}", True),
        ("(-\\infty, \\frac{1}{3}]", "(-\\infty, 0.333]", True),
        ("(-\\infty, \\frac{1}{3}]", "(-\\infty, 0.33]", False),
        # A decimal rounds only the number it is: 0.333 does not make 1.0 a rounding.
        ("(\\frac{1}{3}, \\frac{1001}{1000})", "(0.333, 1.0)", False),
        # A computed float (0.707 times 2) is not a written decimal.
        ("\\sqrt{2}", "2 \\cdot 0.707", False),
        ("(1, 2^{-99})", "(1, 2^{-98})", False),
        # Two matrices, entry by entry (a vector against a tuple is the comparison
        # table's to convert: tests/services/mathcheck/test_checker.py).
        (
            "\\begin{pmatrix} \\frac13 \\\\ 1 \\\\ 2 \\end{pmatrix}",
            "\\begin{pmatrix} 0.333 \\\\ 1 \\\\ 2 \\end{pmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} 1 \\\\ 2^{-99} \\\\ 3 \\end{pmatrix}",
            "\\begin{pmatrix} 1 \\\\ 2^{-98} \\\\ 3 \\end{pmatrix}",
            False,
        ),
    ],
)
def test_each_decimal_rounds_at_its_own_places(reference: str, answer: str, equal: bool) -> None:
    assert symbolic_equal(reference, answer).equal is equal


def test_warm_up_answers_all_parse_to_mathematics() -> None:
    """An answer that only parses to its own string would warm nothing up."""
    mathematics = (sympy.Basic, sympy.MatrixBase)
    unparsed = [a for a in WARM_UP_ANSWERS if not isinstance(_parse(a)[0], mathematics)]
    assert unparsed == []


def test_warm_up_pairs_give_their_verdicts() -> None:
    verdicts = [symbolic_equal(reference, answer).equal for reference, answer in WARM_UP_PAIRS]
    assert verdicts.count(True) >= 5 and verdicts.count(False) >= 3


def test_warm_up_set_is_not_taken_from_what_is_measured() -> None:
    """The benchmark and the labelled cases must not see a pre-parsed answer."""
    measured = {c.reference for c in CORPUS} | {c.answer for c in CORPUS}
    measured |= {c.reference for c in EQUIVALENCE} | {c.answer for c in EQUIVALENCE}
    measured |= {c.reference for c in BARE} | {c.answer for c in BARE}
    warm = set(WARM_UP_ANSWERS) | {text for pair in WARM_UP_PAIRS for text in pair}
    assert warm & measured == set()


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("\\ln 3", "\\log_e 3", True),  # the parser reads the base e as a symbol
        ("\\ln 3", "\\log_{e} 3", True),
        ("\\ln 3", "\\log_e 4", False),
    ],
)
def test_log_base_e_is_the_natural_log(reference: str, answer: str, equal: bool) -> None:
    assert symbolic_equal(reference, answer).equal is equal


@pytest.mark.parametrize(
    ("reference", "answer", "equal"),
    [
        ("2", "2 \\text{ (only solution)}", True),  # a closing note is not the value
        ("5", "x=5 \\text{ (only solution)}", True),
        ("8", "8\\text{ cm}^2", True),  # nor a unit in text, squared or not
        ("\\$3.75", "\\$3.75 per pound", True),  # nor a price's unit
        ("2", "2t", False),  # a last letter is a variable, not a unit
        ("t + x", "x + t", True),
        ("\\sin x", "\\sin t", False),
        ("a + b + c", "c + b + a", True),
    ],
)
def test_notes_and_units_go_but_a_last_variable_stays(
    reference: str, answer: str, equal: bool
) -> None:
    assert symbolic_equal(reference, answer).equal is equal


READ_PAIRS = [
    ("\\binom{n}{2}", "\\frac{n(n-1)}{2}", True),
    ("\\binom{2n}{n}", "\\frac{(2n)!}{(n!)^2}", True),
    ("\\binom{2n}{n}", "\\frac{(2n)!}{n!}", False),
    ("\\sqrt{x^2}", "x", False),  # equal only where x is positive
    ("1", "1 - 2^{-300}", False),  # exact values, compared exactly
    ("10^{100} + 1", "10^{100}", False),
    ("\\frac{1}{2}", "\\frac{1}{2}x", False),
    ("2^{-300}", "\\frac{1}{2^{300}}", True),
    # Decimals, read exactly; one written alone keeps its places for the rule for numbers.
    ("0.5", "\\frac{1}{2}", True),
    ("\\frac{1}{3}", "0.333", True),
    ("\\frac{1}{3}", "0.334", False),
    ("-1.50", "-\\frac{3}{2}", True),
    ("\\frac{x}{2}", "0.5x", True),
    ("\\frac{x}{2}", "0.55x", False),
    # One relation.
    ("y = 2x + 1", "2x - y + 1 = 0", True),
    ("y = 2x + 1", "2x - y + 2 = 0", False),
    ("x > \\frac{5}{2}", "x > 2.5", True),
    ("x > \\frac{5}{2}", "x \\ge 2.5", False),
    # Functions without parentheses, and \\log without a base (base 10 in a reference).
    ("\\sin 2x", "2\\sin x\\cos x", True),
    ("\\sin 2x", "2\\sin x", False),
    ("\\log 100", "2", True),
    ("\\log 100", "3", False),
    # A capital letter, as math-verify's parser reads it.
    ("\\frac{x^3}{3}+C", "x^3/3 + c", True),
    ("\\frac{x^3}{3}+C", "\\frac{x^3}{3}", False),
    ("\\pi R^2", "\\pi r^2", True),
    ("\\pi R^2", "2\\pi r", False),
    ("\\theta = \\frac{\\pi}{4}", "\\theta = \\pi / 4", True),
    ("\\theta = \\frac{\\pi}{4}", "\\theta = \\pi / 5", False),
    ("2\\text{x}", "x + x", True),
    ("2\\text{x}", "2y", False),
]


@pytest.mark.parametrize(("reference", "answer", "equal"), READ_PAIRS)
def test_expressions_the_reader_reads_are_compared_without_their_text(
    reference: str, answer: str, equal: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    def parse(text: str) -> None:
        raise AssertionError(f"parsed again: {text}")

    monkeypatch.setattr(symbolic, "_parse_cached", parse)
    assert symbolic_equal(reference, answer).equal is equal
    assert symbolic_equal(answer, reference).equal is equal


@pytest.mark.parametrize(("reference", "answer", "equal"), READ_PAIRS)
def test_the_reader_and_the_text_parser_agree(
    reference: str, answer: str, equal: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(symbolic, "_read_both", lambda *texts: None)
    assert symbolic_equal(reference, answer).equal is equal


@pytest.mark.parametrize(
    ("reference", "answer", "convention", "equal"),
    [
        ("\\ln 2", "\\log 2", symbolic.LogConvention.REFERENCE, True),
        ("\\ln 2", "\\log 2", symbolic.LogConvention.NATURAL, True),
        ("\\ln 2", "\\log 2", symbolic.LogConvention.COMMON, False),
        ("\\log 2", "\\ln 2", symbolic.LogConvention.REFERENCE, False),
        ("\\log 2", "\\ln 2", symbolic.LogConvention.NATURAL, True),
        ("\\ln 2", "\\log_{10} 2", symbolic.LogConvention.NATURAL, False),
        ("\\log 2 + \\log 5", "1", symbolic.LogConvention.COMMON, True),
        ("\\log 2 + \\log 5", "1", symbolic.LogConvention.NATURAL, False),
    ],
)
def test_log_without_a_base_on_the_tree_follows_the_convention(
    reference: str,
    answer: str,
    convention: symbolic.LogConvention,
    equal: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert symbolic._read_both(reference, answer, convention) is not None
    assert symbolic_equal(reference, answer, convention).equal is equal
    monkeypatch.setattr(symbolic, "_read_both", lambda *texts: None)
    assert symbolic_equal(reference, answer, convention).equal is equal


@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        ("x + E", "x + e"),  # math-verify's parser reads E as an unknown, I as i
        ("P(1)", "p"),  # a function applied, to math-verify's parser
        ("18", "18\\text{m}"),  # a unit, which math-verify's parse goes without
        ("0.5 + 0.25", "\\frac{3}{4}"),  # decimals in a sum keep no places
        ("2.5 \\times 10^{-3}", "\\frac{1}{400}"),
        ("1 < x < 2", "x > 1"),  # a chain of relations
        ("\\sin x \\cdot y", "\\sin(x) y"),  # sin(x·y) to math-verify's parser
        ("\\frac{1}{0}", "1"),  # undefined
        ("\\frac{5}{2}", "2\\frac{1}{2}"),  # a mixed number to math-verify's parser
    ],
)
def test_what_the_reader_leaves_goes_to_the_text_parser(reference: str, answer: str) -> None:
    assert symbolic._read_both(reference, answer) is None


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789xy+-*/^_{}()[],. \\fracsqrtlangle$", max_size=40))
def test_a_text_parses_to_one_expression_or_stays_text(text: str) -> None:
    """The parser is given the text alone: one expression, or the text (normalised) that
    equals only itself; nothing else is searched out of it."""
    parsed = _parse(text)
    assert len(parsed) <= 1
    for value in parsed:
        assert isinstance(value, str | sympy.Basic | sympy.MatrixBase)
        if isinstance(value, str):
            assert value.strip()


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("\\langle 0, 12 \\rangle", False),  # not the 12 in it
        ("1, 3, 12, \\dots", False),  # an open-ended list is not {1, 3, 12}
        ("\\sqrt{ 12", False),
        ("0.142857\\ldots", True),  # a decimal that goes on is a number
        ("12", True),
    ],
)
def test_a_text_that_does_not_parse_is_not_a_number_in_it(text: str, parsed: bool) -> None:
    (value,) = _parse(text)
    assert isinstance(value, str) is not parsed
    if not parsed:
        assert "12" in value
