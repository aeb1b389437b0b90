"""math-verify's test tables read as labelled pairs, from their syntax tree."""

from __future__ import annotations

from pathlib import Path

from benchmarks import peer_test_pairs

_TESTS = """
import math
import pytest


@pytest.mark.parametrize(
    "gold,pred,expected",
    [
        ("1000", "1,000", 1),
        ("$9$", "Answer $ \\\\n 9 \\\\n $", 0),
        (f"{math.sqrt(4):.1f}", "$2$", 1),
    ],
)
def test_numbers(gold, pred, expected):
    assert compare_strings(gold, pred, match_types=["expr"], precision=5) == expected


@pytest.mark.parametrize(
    "gold, pred, expected, allow_set_relation_comp",
    [("$x \\\\in [0, 1]$", "$0 \\\\le x \\\\le 1$", 1, True)],
)
def test_sets(gold, pred, expected, allow_set_relation_comp):
    assert compare_strings(
        gold, pred, match_types=["latex"], allow_set_relation_comp=allow_set_relation_comp
    ) == expected


@pytest.mark.parametrize("pred,expected", [("x", "x")])
def test_extraction_only(pred, expected):
    assert pred == expected
"""


def test_each_table_row_is_a_pair_with_its_label_and_settings(tmp_path: Path) -> None:
    for name in peer_test_pairs.FILES:
        (tmp_path / name).write_text("")
    (tmp_path / "test_all.py").write_text(_TESTS)
    found = list(peer_test_pairs.pairs(tmp_path))
    assert [(pair["reference"], pair["answer"], pair["label"]) for pair in found] == [
        ("1000", "1,000", True),
        ("$9$", "Answer $ \\n 9 \\n $", False),
        ("2.0", "$2$", True),  # an entry written as an expression, evaluated
        ("$x \\in [0, 1]$", "$0 \\le x \\le 1$", True),
    ]
    assert found[0]["settings"] == {"match_types": ["expr"], "precision": 5, "test": "test_numbers"}
    # An option the table sets row by row is that row's.
    assert found[3]["settings"]["allow_set_relation_comp"] is True
    assert {pair["source"] for pair in found} == {"huggingface/Math-Verify/tests/test_all.py"}
