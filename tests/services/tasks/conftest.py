"""What the task tests share: the real math checker, one worker, torn down with the module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.mathcheck.checker import MathChecker
from services.mathcheck.pool import SymbolicPool


@pytest.fixture(scope="module")
def math_checker() -> Iterator[MathChecker]:
    checker = MathChecker(SymbolicPool(1, 20.0, 1024), 64)
    try:
        yield checker
    finally:
        checker.close()
