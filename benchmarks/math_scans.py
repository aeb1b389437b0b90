"""How many times the reader scans text into tokens for each answer it reads.

Every answer of the main, bare, fresh, fresh2 and fresh3 corpora (each pair's reference and
the answer lenient extraction finds) is read once as the checker reads it: the front end's
tokens (``alignment.latex_tokens``) read by ``reading.read_tokens``, the caches emptied
first, and each scan of a text by the tokenizer (``latex_tokens``, cached or not) is counted
with the function that asked for it. An answer's own text is scanned once; what is scanned
again is a text a rule or a pass wrote (LaTeX for a call in plain text, a phrase's notation,
where two tokens ran together), or the canonical form that normalisation wrote.

Usage: ``python benchmarks/math_scans.py``.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3, math_corpus
from services.contract.protocol import ExtractionPolicy
from services.mathcheck import latex_tokens, normalization, reading
from services.mathcheck.alignment import latex_tokens as front_end
from services.mathcheck.extraction import extract_answer, reference_answer

CORPORA = (math_corpus, bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3)


def answers() -> list[str]:
    """The distinct answers the checker reads on the five corpora, as extracted."""
    texts: dict[str, None] = {}
    for corpus in CORPORA:
        for case in corpus.CASES:
            found = extract_answer(case.answer, ExtractionPolicy.LENIENT).answer
            if found is None:
                continue
            for text in (reference_answer(case.reference), found):
                texts.setdefault(text)
    return list(texts)


def scans(texts: list[str]) -> Counter[str]:
    """The scans made while reading ``texts``, by the function that asked for each."""
    counted: Counter[str] = Counter()
    tokenize = latex_tokens.tokenize

    def counting(text: str) -> list[latex_tokens.Token]:
        caller = sys._getframe(1).f_code
        counted[f"{Path(caller.co_filename).stem}.{caller.co_name}"] += 1
        return tokenize(text)

    patched = [
        module
        for module in list(sys.modules.values())
        if getattr(module, "__name__", "").startswith("services.mathcheck")
        and getattr(module, "tokenize", None) is tokenize
    ]
    for module in patched:
        module.tokenize = counting  # type: ignore[attr-defined]
    for cache in (latex_tokens._tokens, normalization.normalize_answer, reading.read):
        cache.cache_clear()
    try:
        for text in texts:
            reading.read_tokens(front_end(text))
    finally:
        for module in patched:
            module.tokenize = tokenize  # type: ignore[attr-defined]
    return counted


def main() -> None:
    texts = answers()
    counted = scans(texts)
    total = sum(counted.values())
    print(f"{len(texts)} distinct answers read; {total} scans, {total / len(texts):.2f} an answer")
    for caller, count in counted.most_common():
        print(f"  {count:6d}  {count / len(texts):5.2f}  {caller}")


if __name__ == "__main__":
    main()
