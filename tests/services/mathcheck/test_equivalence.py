"""The hand-labelled equivalence corpus, judged by the real service over HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.services.mathcheck.equivalence_cases import CASES, EquivCase


@pytest.fixture(scope="module")
def verdicts(service_url: str) -> list[dict[str, Any]]:
    """Every case scored in one batch, as a trainer would send it."""
    items = [
        {"completion": f"\\boxed{{{case.answer}}}", "reference": case.reference, "id": i}
        for i, case in enumerate(CASES)
    ]
    response = httpx.post(f"{service_url}/score/math", json={"items": items}, timeout=300)
    assert response.status_code == 200
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def test_corpus_is_broad_and_balanced() -> None:
    kinds = {case.kind for case in CASES}
    assert len(CASES) >= 200 and len(kinds) >= 15
    for kind in kinds:
        labels = [case.equivalent for case in CASES if case.kind == kind]
        assert labels.count(True) >= 8 and labels.count(False) >= 6, kind


@pytest.mark.parametrize(
    "index", range(len(CASES)), ids=[f"{c.kind}-{i}" for i, c in enumerate(CASES)]
)
def test_verdict_matches_label(verdicts: list[dict[str, Any]], index: int) -> None:
    case: EquivCase = CASES[index]
    result = verdicts[index]
    assert result["status"] == "ok", result["detail"]
    judged_equal = result["components"]["correct"] == 1.0
    assert judged_equal == case.equivalent, (
        f"{case.reference!r} vs {case.answer!r}: expected {case.equivalent} "
        f"({case.note or case.kind}); service said {result['detail']}"
    )
