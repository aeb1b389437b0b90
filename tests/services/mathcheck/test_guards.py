from __future__ import annotations

import time

import pytest

from services.mathcheck.guards import hostile_reason


@pytest.mark.parametrize(
    "answer",
    [
        "2^{2^{2^{100}}}",
        "9^9^9",
        "10^{10^{10}}",
        "2**2**2**2**2",
        "100000!",
        "3!!",
        "(10^5)!",
        "1e99999",
        "x^{1000000}",
        "\\sum_{k=1}^{1000000} k",
        "(" * 40 + "1" + ")" * 40,
        "1" * 500,
        "x" * 3000,
        "+".join(["x"] * 500),
    ],
)
def test_hostile_answers_are_refused_quickly(answer: str) -> None:
    started = time.monotonic()
    assert hostile_reason(answer) is not None
    assert time.monotonic() - started < 1


@pytest.mark.parametrize(
    "answer",
    [
        "2^{100}",
        "2^{3^{4}}",
        "e^{x^2}",
        "\\frac{1}{2^{99}}",
        "5!",
        "(n+1)!",
        "1.5\\times10^{3}",
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
        "\\sum_{k=1}^{10} k",
        "x^2+2x+1",
    ],
)
def test_ordinary_answers_pass(answer: str) -> None:
    assert hostile_reason(answer) is None
