"""The leaves the symbolic engine receives on the five corpora, and which the expression
reader reads on both sides (the engine then compares its trees, not the texts).

Every pair of the main, bare, fresh, fresh2 and fresh3 corpora is judged in this process,
as the service judges it (lenient extraction), with a pool that records each distinct leaf
and compares it here. Prints each corpus's agreement with its labels, the distinct leaves,
how many the reader reads on both sides, and the others grouped by what the reader does
not take on a side (``--examples N`` shows N of each group). ``--check`` also compares
every leaf and every corpus pair as written that the reader reads on both sides, both ways
round (under each log convention where a side writes ``\\log``), by the trees and by the
text path (math-verify's parser), and prints where the verdicts differ.

Usage: ``python benchmarks/math_engine_leaves.py [--examples 3] [--check]``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3, math_corpus
from services.mathcheck import expression_reader, pool, symbolic
from services.mathcheck.checker import MathChecker
from services.mathcheck.expression_reader import ENGINE, Unreadable
from services.mathcheck.extraction import ExtractionPolicy
from services.mathcheck.symbolic import LogConvention, SymbolicVerdict
from services.tasks.math.judge import MathJudge

CORPORA: dict[str, Any] = {
    "main": math_corpus,
    "bare": bare_answers,
    "fresh": fresh_pairs,
    "fresh2": fresh_pairs_2,
    "fresh3": fresh_pairs_3,
}
_NOTATION = replace(ENGINE, log="common")


class RecordingPool:
    """The symbolic pool's interface, in this process: records each leaf it compares."""

    workers = 1

    def __init__(self, leaves: dict[tuple[str, str], None]) -> None:
        self.leaves = leaves

    async def compare(self, reference: str, answer: str) -> SymbolicVerdict:
        self.leaves.setdefault((reference, answer), None)
        return pool._compare(reference, answer, LogConvention.REFERENCE)

    def close(self) -> None:
        pass


def not_taken(text: str) -> str | None:
    """What the reader does not take in ``text`` (its first refusal), or None when it reads
    it in the engine's notation."""
    if expression_reader.read_expression(text, notation=_NOTATION) is not None:
        return None
    unread = expression_reader._REFUSED - {".", "=", "<", ">"}
    refused = sorted(set(text.replace("\\log_", "")) & unread)
    if refused:
        return f"character {refused[0]!r}"
    try:
        parser = expression_reader._Parser(text.replace("\\left", "").replace("\\right", ""))
        parser.notation = _NOTATION
        parser.whole()
    except (Unreadable, RecursionError) as exc:
        reason = str(exc)
        return reason if len(reason) <= 30 else reason[:30] + "…"
    return "read only without the engine's notation"


async def judged(leaves: dict[tuple[str, str], None]) -> None:
    for name, module in CORPORA.items():
        checker = MathChecker(RecordingPool(leaves), cache_size=100_000)  # type: ignore[arg-type]
        judge = MathJudge(checker)
        agree = 0
        for case in module.CASES:
            judgement = await judge.judge_text(
                0, None, case.reference, case.answer, ExtractionPolicy.LENIENT, True, 20
            )
            agree += judgement.correct == case.label
        print(f"{name}: {agree}/{len(module.CASES)} agree with their labels")


def check(leaves: dict[tuple[str, str], None]) -> None:
    pairs = set(leaves)
    for module in CORPORA.values():
        for case in module.CASES:
            pairs |= {(case.reference, case.answer), (case.answer, case.reference)}
    trees = symbolic._read_both
    compared, differ = 0, []
    for reference, answer in sorted(pairs):
        for convention in LogConvention:
            if convention is not LogConvention.REFERENCE and "\\log" not in reference + answer:
                continue
            if trees(reference, answer, convention) is None:
                continue
            compared += 1
            by_trees = pool._compare(reference, answer, convention).equal
            symbolic._read_both = lambda *texts: None
            try:
                by_text = pool._compare(reference, answer, convention).equal
            finally:
                symbolic._read_both = trees
            if by_trees != by_text:
                differ.append((reference, answer, convention.value, by_trees))
    print(
        f"read on both sides, compared both ways: {compared}; verdicts that differ: {len(differ)}"
    )
    for reference, answer, setting, by_trees in differ:
        print(f"  {reference!r} against {answer!r} ({setting}): trees say {by_trees}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args()
    logging.disable(logging.WARNING)
    leaves: dict[tuple[str, str], None] = {}
    asyncio.run(judged(leaves))
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for reference, answer in leaves:
        if symbolic._read_both(reference, answer) is not None:
            groups["read on both sides"].append((reference, answer))
            continue
        reasons = [not_taken(text) for text in (reference, answer)]
        reason = next(
            (reason for reason in reasons if reason is not None),
            "a decimal in a sum or product of numbers, or an undefined value",
        )
        groups[reason].append((reference, answer))
    both = len(groups["read on both sides"])
    print(f"distinct leaves: {len(leaves)}; read on both sides: {both} ({both / len(leaves):.0%})")
    for reason, pairs in sorted(groups.items(), key=lambda item: -len(item[1])):
        print(f"  {len(pairs):4d}  {reason}")
        for reference, answer in pairs[: options.examples]:
            print(f"          {reference!r} against {answer!r}")
    if options.check:
        check(leaves)


if __name__ == "__main__":
    main()
