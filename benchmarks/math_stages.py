"""Which modules of the math checker an answer passes through as it is read, run and traced.

Every distinct answer of the main, bare, fresh, fresh2, fresh3 and fresh4 corpora (each
pair's reference and the answer lenient extraction finds, after the front end) is read by
``reading.read`` with the caches emptied first, and the module of ``services/mathcheck`` it
runs in is recorded at every call and at every return to the caller. Running on in one
module is one stay; a return is a stay in a module the answer had already left (back in
a caller after a call counts). A reader that enters each stage
once has one stay per module it uses and no returns.

Two counts are given: all modules, and the stages alone, leaving out the modules every
stage calls as a library (the token type and its helpers, ``latex_tokens``; the typed
values, ``answer_types``; the word lists, ``vocabulary``). The same for whole pairs, each
side as the checker reads it (the front end's tokens, ``alignment.latex_tokens``, read by
``reading.read_tokens``), the conversions and the comparison table (``comparison.convert``,
``decide``), the symbolic pool left out.

Usage: ``python benchmarks/math_stages.py [--out benchmarks/results/math_stages.json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import (
    bare_answers,
    fresh_pairs,
    fresh_pairs_2,
    fresh_pairs_3,
    fresh_pairs_4,
    math_corpus,
)
from services.contract.protocol import ExtractionPolicy
from services.mathcheck import latex_tokens as tokens
from services.mathcheck import normalization, reading
from services.mathcheck.alignment import align, latex_tokens
from services.mathcheck.comparison import convert, decide
from services.mathcheck.extraction import extract_answer, reference_answer

CORPORA = (math_corpus, bare_answers, fresh_pairs, fresh_pairs_2, fresh_pairs_3, fresh_pairs_4)
LIBRARIES = frozenset(("latex_tokens", "answer_types", "vocabulary"))
_PACKAGE = str(Path(reading.__file__).resolve().parent)


def pairs() -> list[tuple[str, str]]:
    """Each pair's reference and extracted answer, before the front end."""
    found: list[tuple[str, str]] = []
    for corpus in CORPORA:
        for case in corpus.CASES:
            answer = extract_answer(case.answer, ExtractionPolicy.LENIENT).answer
            if answer is not None:
                found.append((reference_answer(case.reference), answer))
    return found


def _clear_caches() -> None:
    for cache in (tokens._tokens, normalization.normalize_answer, reading.read):
        cache.cache_clear()


@contextmanager
def _recording(modules: list[str]) -> Iterator[None]:
    """Appends to ``modules`` each module of the package the program runs in, a stay at a
    time: entered by a call, or returned to from one."""

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            running: FrameType | None = frame
        elif event == "return":
            running = frame.f_back  # back in the caller
        else:
            return
        path = running.f_code.co_filename if running is not None else ""
        if not path.startswith(_PACKAGE):
            return
        module = Path(path).stem
        if not modules or modules[-1] != module:
            modules.append(module)

    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(None)


def _trip(modules: list[str], leave_out: frozenset[str]) -> tuple[int, int, list[str]]:
    """Stays, returns and the route of ``modules`` without those in ``leave_out``."""
    route: list[str] = []
    for module in modules:
        if module not in leave_out and (not route or route[-1] != module):
            route.append(module)
    returns = len(route) - len(set(route))
    return len(route), returns, route


def measure(items: list[Any], run: Callable[[Any], object]) -> dict[str, Any]:
    """The mean stays and returns of ``run`` over ``items``, all modules and stages alone."""
    totals = {"all": [0, 0], "stages": [0, 0]}
    by_module: Counter[str] = Counter()
    example: list[str] = []
    for item in items:
        _clear_caches()
        modules: list[str] = []
        with _recording(modules):
            run(item)
        for name, leave_out in (("all", frozenset[str]()), ("stages", LIBRARIES)):
            stays, returns, route = _trip(modules, leave_out)
            totals[name][0] += stays
            totals[name][1] += returns
            if name == "stages":
                by_module.update(route)
                example = example or route
    count = len(items)
    return {
        "items": count,
        **{
            name: {"stays": round(stays / count, 2), "returns": round(returns / count, 2)}
            for name, (stays, returns) in totals.items()
        },
        "stage_stays_by_module": {
            module: round(stays / count, 2) for module, stays in by_module.most_common()
        },
        "first_route": example,
    }


def _pair(pair: tuple[str, str]) -> None:
    reference, answer = (reading.read_tokens(latex_tokens(text)) for text in pair)
    decide(*convert(reference, answer))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args()
    found = pairs()
    answers = list(dict.fromkeys(text for pair in found for text in align(*pair)))
    results = {
        "answers": measure(answers, reading.read),
        "pairs": measure(found, _pair),
    }
    for name, result in results.items():
        print(
            f"{name}: {result['items']}; per item, all modules {result['all']['stays']} stays "
            f"({result['all']['returns']} returns), stages {result['stages']['stays']} stays "
            f"({result['stages']['returns']} returns)"
        )
        for module, stays in result["stage_stays_by_module"].items():
            print(f"  {stays:6.2f}  {module}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
