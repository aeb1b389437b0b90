"""Two-stage LaTeX parsing for math-verify's parser: ANTLR's SLL mode first, LL on failure.

latex2sympy2_extended (pinned through math-verify) parses with ANTLR's default LL
prediction. Where SLL meets a conflict, LL redoes the prediction with the full parser
context, and ANTLR never caches those full-context predictions: each one costs the same
again, the hundredth time as the first. They were a third of all parsing time on the
differential corpus.

ANTLR's documented guarantee (``PredictionMode.SLL``): in SLL mode the parser "will either
return a correct parse tree (i.e. the same parse tree that would be returned with the LL
prediction mode), or it will report a syntax error". So each parse runs in SLL mode, and
only a syntax error sends it back to LL. A verdict cannot change; the work can only drop.
SLL's predictions are all cached in the parser's shared DFA, so the warm-up in the fork
server (``preload.py``) makes later parses in every worker cheaper still.
"""

from __future__ import annotations

from typing import Any

from antlr4.atn.PredictionMode import PredictionMode
from antlr4.error.ErrorListener import ErrorListener
from latex2sympy2_extended import latex2sympy2


class _SllSyntaxError(Exception):
    """SLL could not parse the input: a real syntax error, or input that needs LL."""


class _StopOnSyntaxError(ErrorListener):  # type: ignore[misc]
    def syntaxError(
        self, recognizer: Any, offendingSymbol: Any, line: int, column: int, msg: str, e: Any
    ) -> None:
        raise _SllSyntaxError(msg)


_BaseConverter: Any = latex2sympy2._Latex2Sympy


class _TwoStageConverter(_BaseConverter):  # type: ignore[misc]
    """latex2sympy2_extended's converter, parsing SLL first."""

    _sll = False

    def create_parser(self, latex_str: str) -> Any:
        parser = super().create_parser(latex_str)
        if self._sll:
            parser._interp.predictionMode = PredictionMode.SLL
            # Ahead of the library's own listener, which raises a generic Exception.
            parser._listeners.insert(0, _StopOnSyntaxError())
        return parser

    def parse(self, latex_str: str) -> Any:
        # parse() recurses for sub-expressions: each level keeps the mode it was called in.
        outer = self._sll
        try:
            self._sll = True
            try:
                return super().parse(latex_str)
            except _SllSyntaxError:
                self._sll = False
                return super().parse(latex_str)
        finally:
            self._sll = outer


def install() -> None:
    """Make ``latex2sympy`` (and so math-verify's ``parse``) parse in two stages.

    ``latex2sympy`` builds its converter from the module's global name at each call, so
    replacing that name is enough. Idempotent.
    """
    latex2sympy2._Latex2Sympy = _TwoStageConverter


def installed() -> bool:
    return latex2sympy2._Latex2Sympy is _TwoStageConverter
