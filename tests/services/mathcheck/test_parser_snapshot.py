"""The LaTeX parser's snapshot: a process that loads it parses exactly as a cold one does,
the singletons ANTLR compares by identity stay the live ones, and a damaged file or a
directory that cannot be written only costs the snapshot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import bare_answers
from benchmarks.math_corpus import CASES
from harness.compose_files import ROOT
from services.mathcheck import parser_snapshot

# Answers and references the warm-up set does not hold (every 4th of two corpora's): the
# loaded tables must serve paths they hold and grow new ones as a cold parser would.
TEXTS = sorted(
    {text for case in (*CASES, *bare_answers.CASES)[::4] for text in (case.answer, case.reference)}
)

# Run in a fresh interpreter: ``directory`` empty means a cold parser; otherwise the
# snapshot there is loaded first. Prints whether it loaded, the DFA states it started with,
# each text parsed, and whether, after the parses, every empty semantic context in the DFA
# is the runtime's own NONE (ANTLR tests it by identity).
_PARSE = """
import json, sys
from pathlib import Path
import sympy
from antlr4.atn.SemanticContext import SemanticContext
from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse
from services.mathcheck import parser_snapshot, two_stage_parsing

directory, texts = sys.argv[1], json.loads(sys.stdin.read())
loaded = bool(directory) and parser_snapshot.load(Path(directory))
two_stage_parsing.install()
parser, _ = parser_snapshot._recognizers()
states_before = sum(len(dfa._states) for dfa in parser.decisionsToDFA)
config = [LatexExtractionConfig(), ExprExtractionConfig()]
parsed = []
for text in texts:
    try:
        found = parse("\\\\boxed{" + text + "}", extraction_config=config, parsing_timeout=None)
        parsed.append(repr([sympy.srepr(p) if isinstance(p, sympy.Basic) else p for p in found]))
    except Exception as exc:
        parsed.append(f"raised {type(exc).__name__}: {exc}")
empty = type(SemanticContext.NONE)
own_none = all(
    config.semanticContext is SemanticContext.NONE
    for dfa in parser.decisionsToDFA
    for state in dfa._states
    for config in state.configs
    if isinstance(config.semanticContext, empty)
)
print(json.dumps({"loaded": loaded, "own_none": own_none, "states_before": states_before,
                  "parsed": parsed}))
"""

_WRITE = """
import sys
from pathlib import Path
from services.mathcheck import parser_snapshot
from services.mathcheck.symbolic import warm_up
from services.mathcheck.warm_up_set import WARM_UP_ANSWERS, WARM_UP_PAIRS

warm_up(WARM_UP_ANSWERS, WARM_UP_PAIRS)
print(parser_snapshot.save(Path(sys.argv[1])))
"""


def _python(code: str, *args: str, stdin: str = "") -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def snapshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("parser-snapshot")
    written = _python(_WRITE, str(directory))
    assert Path(written) == parser_snapshot.path_in(directory)
    return directory


def test_a_loaded_snapshot_parses_as_a_cold_parser_does(snapshot_dir: Path) -> None:
    assert len(TEXTS) > 400
    warm = json.loads(_python(_PARSE, str(snapshot_dir), stdin=json.dumps(TEXTS)))
    cold = json.loads(_python(_PARSE, "", stdin=json.dumps(TEXTS)))
    assert (warm["loaded"], cold["loaded"]) == (True, False)
    # The warm-up's tables came with it; a cold parser starts with none.
    assert (warm["states_before"] > 100, cold["states_before"]) == (True, 0)
    assert warm["own_none"] and cold["own_none"]
    differing = [
        (text, a, b)
        for text, a, b in zip(TEXTS, warm["parsed"], cold["parsed"], strict=True)
        if a != b
    ]
    assert differing == []


def test_a_damaged_or_foreign_snapshot_is_not_loaded(tmp_path: Path) -> None:
    path = parser_snapshot.path_in(tmp_path)
    path.write_bytes(b"not a pickle")
    assert parser_snapshot.load(tmp_path) is False
    assert parser_snapshot.load(tmp_path / "missing") is False


def test_an_unwritable_directory_means_no_snapshot(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert parser_snapshot.save(blocker / "snapshots") is None


def test_the_key_names_the_parser_that_wrote_it(tmp_path: Path) -> None:
    key = parser_snapshot.key()
    assert parser_snapshot.path_in(tmp_path).name == f"latex-parser-{key}.pickle"
    assert parser_snapshot.key() == key  # stable within a version of everything it hashes


def test_the_fork_server_is_told_the_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(parser_snapshot.DIRECTORY_ENV, raising=False)
    parser_snapshot.hand_to_fork_server(Path("/srv/snapshots"))
    assert parser_snapshot.directory_from_environment() == Path("/srv/snapshots")
    parser_snapshot.hand_to_fork_server(None)
    assert parser_snapshot.directory_from_environment() is None
