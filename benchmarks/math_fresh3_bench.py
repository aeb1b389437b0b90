"""The differential benchmark on the third fresh round (``benchmarks/fresh_pairs_3.py``).

The same run as ``python benchmarks/math_diff_bench.py --corpus fresh2`` (ours through the
real service with the lenient extraction policy, math-verify 0.9 in one process and in a
pool, alternating for ``--rounds`` rounds) on whole model responses instead of bare
answers; it writes ``benchmarks/results/math_fresh3_bench.json``. Every option of
``math_diff_bench`` applies (``--ours-only`` prints only our disagreements with the labels).

Usage: ``python benchmarks/math_fresh3_bench.py [--rounds 3] [--ours-only]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import fresh_pairs_3, math_diff_bench

CORPUS = "fresh3"
RESULTS_FILE = "math_fresh3_bench.json"


def main() -> None:
    math_diff_bench.CORPORA[CORPUS] = (fresh_pairs_3, RESULTS_FILE)
    if "--corpus" not in sys.argv:
        sys.argv[1:1] = ["--corpus", CORPUS]
    math_diff_bench.main()


if __name__ == "__main__":
    main()
