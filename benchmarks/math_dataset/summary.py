"""Prints the default dataset's composition: pairs per category and label."""

from __future__ import annotations

from collections import Counter

from benchmarks.math_dataset.dataset import CATEGORIES, build_annotated_dataset


def main() -> None:
    data = build_annotated_dataset()
    pairs = [ap.pair for ap in data]
    distinct = len({(p.reference, p.completion) for p in pairs})
    print(f"pairs: {len(pairs)}  distinct (reference, completion): {distinct}")
    counts = Counter((p.category, p.label) for p in pairs)
    print(f"{'category':18} {'total':>6} {'True':>6} {'False':>6} {'None':>6} {'symbolic':>9}")
    sym = Counter(ap.pair.category for ap in data if ap.needs_symbolic)
    for cat in CATEGORIES:
        t, f, n = counts[(cat, True)], counts[(cat, False)], counts[(cat, None)]
        print(f"{cat:18} {t + f + n:6d} {t:6d} {f:6d} {n:6d} {sym[cat]:9d}")
    labels = Counter(p.label for p in pairs)
    print(f"labels: True={labels[True]} False={labels[False]} None={labels[None]}")
    n_sym = sum(ap.needs_symbolic for ap in data)
    print(
        f"needs more than string/number comparison: {n_sym} "
        f"({100 * n_sym / max(len(data), 1):.1f}% of pairs)"
    )
