"""SLL-first parsing gives math-verify's parser exactly the results of its own LL parsing.

Differential: every answer and reference the project holds (the benchmark corpus, the
equivalence cases, the warm-up set) is parsed by math-verify's ``parse`` once with the
library's converter as published and once with the two-stage one; the sympy objects must
be identical (``srepr``), and so must the failures.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sympy
from latex2sympy2_extended import latex2sympy2
from latex2sympy2_extended.latex2sympy2 import NormalizationConfig, normalize_latex
from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse
from math_verify import parser as math_verify_parser

from benchmarks.math_corpus import CASES as CORPUS
from services.mathcheck import two_stage_parsing
from services.mathcheck.symbolic import symbolic_equal
from services.mathcheck.warm_up_set import WARM_UP_ANSWERS
from tests.services.mathcheck.equivalence_cases import CASES as EQUIVALENCE

# Forms the grammar only parses with LL's full context: SLL reports a syntax error first.
NEEDS_LL = ("x^2 + 1", "f(x) = x^3 - x", "\\frac{1}{x^2}", "a^2+b^2")


def _texts() -> list[str]:
    texts = {case.reference for case in CORPUS} | {case.answer for case in CORPUS}
    texts |= {case.reference for case in EQUIVALENCE} | {case.answer for case in EQUIVALENCE}
    texts |= set(WARM_UP_ANSWERS)
    return sorted(texts)


@pytest.fixture
def converter() -> Iterator[None]:
    """Restore whichever converter was installed, and math-verify's caches, afterwards."""
    installed = latex2sympy2._Latex2Sympy
    yield
    latex2sympy2._Latex2Sympy = installed
    _clear_parse_caches()


def _clear_parse_caches() -> None:
    for name in ("parse_latex_cached", "extract_latex", "extract_expr"):
        cached = getattr(math_verify_parser, name, None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


def _parsed(texts: list[str], converter_class: Any) -> list[str]:
    latex2sympy2._Latex2Sympy = converter_class
    _clear_parse_caches()
    config = [LatexExtractionConfig(), ExprExtractionConfig()]
    results = []
    for text in texts:
        try:
            parsed = parse("\\boxed{" + text + "}", extraction_config=config, parsing_timeout=None)
            shown = [sympy.srepr(p) if isinstance(p, sympy.Basic) else p for p in parsed]
            results.append(repr(shown))
        except Exception as exc:  # the same failure must come out of both
            results.append(f"raised {type(exc).__name__}: {exc}")
    return results


@pytest.mark.usefixtures("converter")
def test_sll_first_parses_every_known_answer_as_ll_does() -> None:
    texts = _texts()
    assert len(texts) > 700
    as_published = _parsed(texts, two_stage_parsing._BaseConverter)
    two_stage = _parsed(texts, two_stage_parsing._TwoStageConverter)
    differing = [t for t, a, b in zip(texts, as_published, two_stage, strict=True) if a != b]
    assert differing == []


@pytest.mark.parametrize("text", NEEDS_LL)
def test_input_sll_cannot_parse_falls_back_to_ll(text: str) -> None:
    normalized = normalize_latex(text, NormalizationConfig())
    sll_only = two_stage_parsing._TwoStageConverter()
    sll_only._sll = True
    with pytest.raises(two_stage_parsing._SllSyntaxError):
        sll_only.create_parser(normalized).math()
    ll = two_stage_parsing._BaseConverter().parse(normalized)
    assert two_stage_parsing._TwoStageConverter().parse(normalized) == ll


def test_a_syntax_error_raises_the_library_error_not_ours() -> None:
    with pytest.raises(Exception) as raised:
        two_stage_parsing._TwoStageConverter().parse("\\frac{1}{")
    assert not isinstance(raised.value, two_stage_parsing._SllSyntaxError)
    assert "\\frac{1}{" in str(raised.value)  # the library's message quotes the input


def test_the_symbolic_path_installs_two_stage_parsing() -> None:
    # A set: the expression reader leaves it to math-verify's parser, the path under test.
    assert symbolic_equal("\\{1, 2\\}", "\\{2, 1\\}").equal
    assert two_stage_parsing.installed()
    two_stage_parsing.install()  # idempotent
    assert latex2sympy2._Latex2Sympy is two_stage_parsing._TwoStageConverter
