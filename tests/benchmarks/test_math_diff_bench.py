"""``math_diff_bench --pairs``: an outside pairs file read as a corpus, one category per source."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.math_corpus import Case
from benchmarks.math_diff_bench import load_pairs


def test_load_pairs_reads_sources_settings_and_bare(tmp_path: Path) -> None:
    rows = [
        {"source": "a/b/tests/t.py", "reference": "1/2", "answer": "0.5", "label": True},
        {
            "source": "c/d/tests/u.py",
            "reference": "$9$",
            "answer": "Answer $ \n 9 \n $",
            "label": False,
            "settings": {"match_types": ["latex"]},
        },
        {"source": "a/b/tests/t.py", "reference": "3", "answer": "4", "label": False, "bare": True},
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows) + "\n")

    corpus, settings = load_pairs(str(path))

    expected = [
        Case("a/b/tests/t.py", "1/2", "0.5", True, False),
        Case("c/d/tests/u.py", "$9$", "Answer $ \n 9 \n $", False, False),
        Case("a/b/tests/t.py", "3", "4", False, True),
    ]
    assert list(corpus.CASES) == expected
    assert corpus.CATEGORIES == ("a/b/tests/t.py", "c/d/tests/u.py")
    assert settings[("c/d/tests/u.py", "$9$", "Answer $ \n 9 \n $", False)] == {
        "match_types": ["latex"]
    }
    assert settings[("a/b/tests/t.py", "1/2", "0.5", True)] is None
