"""A snapshot of the LaTeX parser's prediction tables: a math fork server starts warm without
building them again.

ANTLR builds its prediction DFA lazily, one grammar path at a time, into caches that every
parser instance shares (``PSParser.decisionsToDFA``, ``PSLexer.decisionsToDFA``). Building
the paths real answers take is most of the fork server's warm-up (``preload.py``): about
4 s of CPU at each start of a replica. The first fork server to warm up writes the tables,
with the grammar's ATN they point into, to ``<directory>/latex-parser-<key>.pickle``; a
later one loads them (about 1 s) before its warm-up, which then costs what a second one
does (about 1 s: sympy's caches).

* **Keyed.** ``<key>`` hashes the generated parser and lexer (the serialized grammar is in
  them), the ANTLR runtime's, latex2sympy2's and Python's versions, the warm-up set and
  this module: a snapshot is only read by the parser that wrote it.
* **Identity kept.** ANTLR compares a few singletons by identity (``SemanticContext.NONE``,
  ``PredictionContext.EMPTY``, the simulators' ``ERROR`` states...); they are written as
  references to the live objects, never copied.
* **Trusted directory.** The file is a pickle: the directory must be as trusted as the
  installed code. It is the service's own cache; nothing a request sends reaches it.
* **Never in the way.** A missing, unreadable or foreign file means a normal warm-up; a
  directory that cannot be written means no snapshot. Writes are atomic (a temporary file,
  then a rename), so replicas starting together never read half a file.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import logging
import os
import pickle
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

log = logging.getLogger(__name__)

# How the fork server (a process of its own, started by multiprocessing) learns the
# directory: set by ``hand_to_fork_server`` from the settings before the server starts.
DIRECTORY_ENV = "VERIFIER_MATH_PARSER_SNAPSHOT_DIR"
# The tables are a deep graph (states linked by transitions): pickle recurses about 2,000
# levels into them.
_RECURSION_LIMIT = 20_000


def hand_to_fork_server(directory: Path | None) -> None:
    """Tell the fork server this process starts next where its snapshot lives (None: none).
    A fork server already running keeps what it started with."""
    os.environ[DIRECTORY_ENV] = str(directory) if directory is not None else ""


def directory_from_environment() -> Path | None:
    value = os.environ.get(DIRECTORY_ENV, "").strip()
    return Path(value).expanduser() if value else None


def _recognizers() -> tuple[Any, Any]:
    from latex2sympy2_extended.antlr_parser import PSLexer, PSParser

    return PSParser, PSLexer


def _singletons() -> dict[str, Any]:
    """The runtime's objects compared by identity, by name."""
    from antlr4.atn.ATNSimulator import ATNSimulator
    from antlr4.atn.LexerAction import LexerMoreAction, LexerPopModeAction, LexerSkipAction
    from antlr4.atn.LexerATNSimulator import LexerATNSimulator
    from antlr4.atn.SemanticContext import SemanticContext
    from antlr4.CommonTokenFactory import CommonTokenFactory
    from antlr4.error.ErrorListener import ConsoleErrorListener
    from antlr4.ParserRuleContext import RuleContext
    from antlr4.PredictionContext import PredictionContext

    return {
        "SemanticContext.NONE": SemanticContext.NONE,
        "PredictionContext.EMPTY": PredictionContext.EMPTY,
        "RuleContext.EMPTY": RuleContext.EMPTY,
        "ATNSimulator.ERROR": ATNSimulator.ERROR,
        "LexerATNSimulator.ERROR": LexerATNSimulator.ERROR,
        "LexerSkipAction.INSTANCE": LexerSkipAction.INSTANCE,
        "LexerPopModeAction.INSTANCE": LexerPopModeAction.INSTANCE,
        "LexerMoreAction.INSTANCE": LexerMoreAction.INSTANCE,
        "CommonTokenFactory.DEFAULT": CommonTokenFactory.DEFAULT,
        "ConsoleErrorListener.INSTANCE": ConsoleErrorListener.INSTANCE,
    }


@functools.cache
def key() -> str:
    """What a snapshot must have been written by to be read here (hashed once a process)."""
    from latex2sympy2_extended.antlr_parser import PSLexer, PSParser

    from services.mathcheck import warm_up_set

    digest = hashlib.sha256()
    for part in (
        sys.version,
        importlib.metadata.version("antlr4-python3-runtime"),
        importlib.metadata.version("latex2sympy2_extended"),
        Path(sys.modules[PSParser.__module__].__file__ or "").read_text(),
        Path(sys.modules[PSLexer.__module__].__file__ or "").read_text(),
        repr((warm_up_set.WARM_UP_ANSWERS, warm_up_set.WARM_UP_PAIRS)),
        Path(__file__).read_text(),
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def path_in(directory: Path) -> Path:
    return directory / f"latex-parser-{key()}.pickle"


class _Pickler(pickle.Pickler):
    def __init__(self, file: IO[bytes], singletons: dict[str, Any]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._names = {id(value): name for name, value in singletons.items()}

    def persistent_id(self, obj: Any) -> str | None:
        return self._names.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: IO[bytes], singletons: dict[str, Any]) -> None:
        super().__init__(file)
        self._singletons = singletons

    def persistent_load(self, pid: Any) -> Any:
        if pid not in self._singletons:
            raise pickle.UnpicklingError(f"unknown singleton {pid!r}")
        return self._singletons[pid]


@contextmanager
def _deep_recursion() -> Iterator[None]:
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


# The class attributes that hold the tables: the parser's and the lexer's ATN and DFA, and
# the parser's prediction-context cache.
_PARSER_TABLES = ("atn", "decisionsToDFA", "sharedContextCache")
_LEXER_TABLES = ("atn", "decisionsToDFA")


def _tables() -> tuple[Any, ...]:
    parser, lexer = _recognizers()
    return tuple(getattr(parser, name) for name in _PARSER_TABLES) + tuple(
        getattr(lexer, name) for name in _LEXER_TABLES
    )


def _install(tables: tuple[Any, ...]) -> None:
    parser, lexer = _recognizers()
    owners = [parser] * len(_PARSER_TABLES) + [lexer] * len(_LEXER_TABLES)
    for owner, name, value in zip(owners, _PARSER_TABLES + _LEXER_TABLES, tables, strict=True):
        setattr(owner, name, value)


def load(directory: Path) -> bool:
    """Install the snapshot in ``directory`` into the parser's classes; False (and the
    parser as it was) where there is none this parser can read."""
    path = path_in(directory)
    try:
        with path.open("rb") as file, _deep_recursion():
            tables = _Unpickler(file, _singletons()).load()
    except FileNotFoundError:
        return False
    except Exception as exc:  # a damaged file: warm up as if there were none
        log.warning("math parser snapshot %s not read (%s): warming up without it", path, exc)
        return False
    _install(tables)
    return True


def save(directory: Path) -> Path | None:
    """Write the parser's tables as they are now; None where the directory is not
    writable (the service runs the same, without a snapshot)."""
    path = path_in(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, suffix=".tmp", delete=False) as file:
            try:
                with _deep_recursion():
                    _Pickler(file, _singletons()).dump(_tables())
            except BaseException:
                Path(file.name).unlink(missing_ok=True)
                raise
        os.replace(file.name, path)
    except OSError as exc:
        log.warning("math parser snapshot not written to %s: %s", directory, exc)
        return None
    return path
