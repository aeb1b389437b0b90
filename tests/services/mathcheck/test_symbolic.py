"""The symbolic comparison in-process: plain numbers apart, and the workers' warm-up set."""

from __future__ import annotations

import pytest
import sympy

from benchmarks.bare_answers import CASES as BARE
from benchmarks.math_corpus import CASES as CORPUS
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
    assert verdict.detail == "numerically different beyond relative tolerance"


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
