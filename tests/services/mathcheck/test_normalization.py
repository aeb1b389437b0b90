from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3, math_corpus
from services.mathcheck.comparison import Method, Verdict, equal
from services.mathcheck.extraction import ExtractionPolicy, extract_answer
from services.mathcheck.latex_tokens import answer_tokens, join, tokenize
from services.mathcheck.normalization import canonical_tokens, normalize_answer
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
        # One unknown's values are the set it is in; a union of sets stays whole.
        ("x \\in \\{1, 2\\}", "\\{1, 2\\}"),
        ("x \\in \\{1\\} \\cup \\{2\\}", "x\\in\\{1\\}\\cup\\{2\\}"),
        ("xy \\in \\{1, 2\\}", "xy\\in\\{1, 2\\}"),
        # Equalities written out to a number are that number; one "=" or a list stays.
        ("f(2) = 2^2 = 4", "4"),
        ("AB = BC = 5", "5"),
        ("a = b = 2x", "a=b=2x"),
        ("1 + 1 = 2", "1+1=2"),
    ],
)
def test_normalize_answer(raw: str, normalized: str) -> None:
    assert normalize_answer(raw) == normalized


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
