"""The stages an answer passes through as it is read, traced as the program runs."""

from __future__ import annotations

import pytest

from benchmarks import math_stages
from services.mathcheck import reading

# The reader of a number's value (in digits or in words) is called once per number (each
# entry of a tuple, each cell of a matrix): a leaf of the grammar, left out with the library.
_LEAVES = math_stages.LIBRARIES | {"written_numbers"}


def _route(text: str) -> list[str]:
    math_stages._clear_caches()
    modules: list[str] = []
    with math_stages._recording(modules):
        reading.read(text)
    return math_stages._trip(modules, _LEAVES)[2]


_UNIT_NAMES = ("cm", "dollars", "km/h", "hour")


def test_a_trip_counts_stays_and_returns_without_the_library() -> None:
    modules = ["reading", "latex_tokens", "reading", "normalization", "latex_tokens"]
    modules += ["normalization", "reading", "structures", "reading"]
    assert math_stages._trip(modules, frozenset()) == (9, 5, modules)
    route = ["reading", "normalization", "reading", "structures", "reading"]
    assert math_stages._trip(modules, frozenset({"latex_tokens"})) == (5, 2, route)


@pytest.mark.parametrize(
    "text",
    [
        "42",
        "\\frac{3}{4}",
        "x = 5",
        "$0.5$",
        "50\\%",
        "3\\sqrt{2}",
        "x^2 + 1",
        "(1, 2)",
        "[0, 1)",
        "\\{1, 2, 3\\}",
        "x > 3",
        "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
        "5 \\text{ cm}",
        "12 dollars",
        "1{,}000 \\text{ km/h}",
        "\\dfrac{1}{2} \\text{ hour}",
    ],
)
def test_a_read_enters_each_stage_once(text: str) -> None:
    """Normalisation, the structures' reader and the quantity reader: each is entered
    once, and the reader that calls them is all that is returned to; the quantity reader
    only where a unit is named."""
    route = _route(text)
    stages = [module for module in route if module != "reading"]
    assert "normalization" in stages, route
    assert ("units" in stages) is any(unit in text for unit in _UNIT_NAMES), route
    assert len(stages) == len(set(stages)), route


def test_the_whole_measurement_runs_on_a_few_pairs() -> None:
    pairs = math_stages.pairs()[:20]
    result = math_stages.measure(pairs, math_stages._pair)
    assert result["items"] == 20
    assert 0 < result["stages"]["stays"] <= result["all"]["stays"]
    assert result["stages"]["returns"] < result["stages"]["stays"]
    assert "reading" in result["stage_stays_by_module"]
